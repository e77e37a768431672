import type { LucideIcon } from 'lucide-react';
import type { ComponentType } from 'react';

/** What an area shows in the navigation (its folder's `nav.ts`). `null`: reachable by links only. */
export interface AreaNav {
  label: string;
  icon: LucideIcon;
  /** Position in the navigation, lowest first. */
  order: number;
  /** Shown to admins only (the API stays the authority: others get its 403). */
  adminOnly?: boolean;
  /** Shown only where the install takes payments (Billing): without them there is nothing to buy or pay. */
  paymentsOnly?: boolean;
}

/** One area of the console: the folder `src/routes/<id>/`, served at `/<id>/*`, loaded on first visit. */
export interface Area {
  id: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const area = (id: string, load: Area['load']): Area => ({ id, load });
