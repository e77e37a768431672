import { Workflow } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Workflows', icon: Workflow, order: 48 };
