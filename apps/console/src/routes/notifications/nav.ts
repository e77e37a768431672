import { Bell } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Notifications', icon: Bell, order: 80 };
