import { ScrollText } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Audit log', icon: ScrollText, order: 88 };
