import { SlidersHorizontal } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Model configs', icon: SlidersHorizontal, order: 25 };
