import { Library } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Knowledge bases', icon: Library, order: 40 };
