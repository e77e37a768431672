import { BarChart3 } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Analytics', icon: BarChart3, order: 70 };
