import { UserRound } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Account', icon: UserRound, order: 90 };
