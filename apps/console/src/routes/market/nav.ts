import { Store } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Marketplace', icon: Store, order: 55 };
