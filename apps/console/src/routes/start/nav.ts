import { Rocket } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Get started', icon: Rocket, order: 0 };
