import { Users } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Teams', icon: Users, order: 85 };
