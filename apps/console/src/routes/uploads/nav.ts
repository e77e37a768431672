import { Upload } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Uploads', icon: Upload, order: 42 };
