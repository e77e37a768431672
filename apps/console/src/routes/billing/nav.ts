import { CreditCard } from 'lucide-react';
import type { AreaNav } from '../../app/area';

/** Only where payments are configured (STUDIO.md): a self-hosted install without them has nothing to buy. */
export const nav: AreaNav = { label: 'Billing', icon: CreditCard, order: 85, paymentsOnly: true };
