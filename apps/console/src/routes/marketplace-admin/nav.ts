import { ShieldCheck } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Marketplace review', icon: ShieldCheck, order: 90, adminOnly: true };
