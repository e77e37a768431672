import { Puzzle } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Plugins', icon: Puzzle, order: 45 };
