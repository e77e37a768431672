import { Wrench } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Tools & MCP', icon: Wrench, order: 37 };
