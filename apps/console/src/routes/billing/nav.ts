import { CreditCard } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Billing', icon: CreditCard, order: 85 };
