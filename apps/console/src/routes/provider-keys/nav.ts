import { KeyRound } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Provider keys', icon: KeyRound, order: 30 };
