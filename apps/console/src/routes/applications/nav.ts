import { AppWindow } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Applications', icon: AppWindow, order: 10 };
