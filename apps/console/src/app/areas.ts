import { area } from './area';

/**
 * The console's areas, ONE line each (docs/console.md "Adding an area"). An area is the folder
 * `src/routes/<id>/` with `area.tsx` (its screens, default export, lazy chunk) and `nav.ts` (its label,
 * icon and order in the navigation); it is served at `/<id>/*`.
 */
export const AREAS = [
  area('start', () => import('../routes/start/area')),
  area('applications', () => import('../routes/applications/area')),
  area('playground', () => import('../routes/playground/area')),
  area('provider-keys', () => import('../routes/provider-keys/area')),
  area('api-keys', () => import('../routes/api-keys/area')),
  area('tools', () => import('../routes/tools/area')),
  area('uploads', () => import('../routes/uploads/area')),
  area('knowledge', () => import('../routes/knowledge/area')),
  area('knowledge-bases', () => import('../routes/knowledge-bases/area')),
  area('model-configs', () => import('../routes/model-configs/area')),
  area('prompts', () => import('../routes/prompts/area')),
  area('plugins', () => import('../routes/plugins/area')),
  area('notifications', () => import('../routes/notifications/area')),
  area('analytics', () => import('../routes/analytics/area')),
  area('branding', () => import('../routes/branding/area')),
  area('domains', () => import('../routes/domains/area')),
  area('workflows', () => import('../routes/workflows/area')),
  area('account', () => import('../routes/account/area')),
  area('billing', () => import('../routes/billing/area')),
  area('data', () => import('../routes/data/area')),
  area('admin', () => import('../routes/admin/area')),
  area('teams', () => import('../routes/teams/area')),
  area('webhooks', () => import('../routes/webhooks/area')),
  area('audit', () => import('../routes/audit/area')),
  area('market', () => import('../routes/market/area')),
  area('marketplace-admin', () => import('../routes/marketplace-admin/area')),
];
