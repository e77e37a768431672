import type { Actor } from '../../shared/actor';
import { ForbiddenError } from '../../shared/errors';
import type { MarketplaceCatalog } from '../ports/marketplace-catalog.port';

interface Page {
  data: unknown[];
  total: number;
}

/** `GET /api/admin/marketplace` (admin only): what awaits review at the marketplace, with counts. */
export class MarketplaceAdminOverviewUseCase {
  constructor(private readonly deps: { catalog: MarketplaceCatalog }) {}

  async execute(actor: Actor): Promise<{ configured: boolean; pending: { plugins: unknown[]; themes: unknown[] }; counts: { pendingPlugins: number; pendingThemes: number } }> {
    if (actor.role !== 'admin') throw new ForbiddenError('This requires the admin role');
    const [plugins, themes, counted] = await Promise.all([this.pending('plugins', actor), this.pending('themes', actor), this.deps.catalog.forward({ method: 'GET', path: '/admin/pending/count', actor })]);
    const c = (counted.status === 200 ? counted.body : null) as { plugins?: unknown; themes?: unknown } | null;
    const count = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);
    return {
      configured: this.deps.catalog.configured,
      pending: { plugins: plugins.data, themes: themes.data },
      counts: { pendingPlugins: count(c?.plugins, plugins.total), pendingThemes: count(c?.themes, themes.total) },
    };
  }

  private async pending(kind: string, actor: Actor): Promise<Page> {
    const res = await this.deps.catalog.forward({ method: 'GET', path: `/admin/pending/${kind}`, query: { page: '1', limit: '100' }, actor });
    const b = res.body as Partial<Page> | unknown[] | null;
    if (res.status !== 200) return { data: [], total: 0 };
    if (Array.isArray(b)) return { data: b, total: b.length };
    const data = Array.isArray(b?.data) ? b.data : [];
    return { data, total: typeof b?.total === 'number' ? b.total : data.length };
  }
}
