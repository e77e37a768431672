import { ShieldCheck } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Admin', icon: ShieldCheck, order: 95, adminOnly: true };
