import { Code2 } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'API keys & embed', icon: Code2, order: 35 };
