import { BookOpen } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Knowledge', icon: BookOpen, order: 40 };
