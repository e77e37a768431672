import { DatabaseBackup } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Data', icon: DatabaseBackup, order: 88 };
