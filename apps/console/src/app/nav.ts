import type { AreaNav } from './area';

/** Every area's `nav.ts`, read at build time (small: a label, an icon, an order), keyed by area id. */
const modules = import.meta.glob<{ nav: AreaNav | null }>('../routes/*/nav.ts', { eager: true });

export const NAV: Record<string, AreaNav | null> = Object.fromEntries(
  Object.entries(modules).map(([path, m]) => [path.split('/').at(-2)!, m.nav]),
);

/** Whether a navigation entry is shown: admin-only entries to admins, payments-only ones where payments are configured. */
export const shownIn = (item: AreaNav, who: { admin: boolean; payments: boolean }): boolean =>
  (who.admin || !item.adminOnly) && (who.payments || !item.paymentsOnly);
