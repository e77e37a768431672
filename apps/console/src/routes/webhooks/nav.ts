import { Webhook } from 'lucide-react';
import type { AreaNav } from '../../app/area';

export const nav: AreaNav = { label: 'Webhooks', icon: Webhook, order: 60 };
