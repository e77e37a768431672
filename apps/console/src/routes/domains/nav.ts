import { Globe } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Custom domains', icon: Globe, order: 38 };
