import { MessagesSquare } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Playground', icon: MessagesSquare, order: 20 };
