import { FileText } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Prompts', icon: FileText, order: 27 };
