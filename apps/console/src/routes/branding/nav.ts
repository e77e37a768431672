import { Palette } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Themes & branding', icon: Palette, order: 37 };
