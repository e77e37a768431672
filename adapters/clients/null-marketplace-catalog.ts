import { NotFoundError } from '../../core/shared/errors';
import type { CatalogRequest, CatalogResponse, LicenseCheck, MarketplaceCatalog } from '../../core/marketplace/ports/marketplace-catalog.port';

/** The list reads that answer `{ data, total, page, limit }` (browse, themes, pending items, your licenses). */
const PAGED = new Set(['/browse', '/themes', '/admin/pending/plugins', '/admin/pending/themes', '/licenses']);
/** The list reads that answer a plain array. */
const LISTS = /^\/(?:plugins\/featured|featured|plugins\/categories|categories|themes\/featured|themes\/categories|submissions|(?:plugins|themes)\/[^/]+\/(?:reviews|versions))$/;

/**
 * No marketplace configured (MARKETPLACE_URL empty): browse, featured and categories answer empty, an item
 * is not found, paid validation is skipped (every license counts as valid), and writes answer 404 saying so.
 */
export class NullMarketplaceCatalog implements MarketplaceCatalog {
  readonly configured = false;

  async forward(req: CatalogRequest): Promise<CatalogResponse> {
    if (req.method === 'GET' && PAGED.has(req.path)) {
      const page = Number(req.query?.page ?? 1);
      const limit = Number(req.query?.limit ?? 20);
      return { status: 200, body: { data: [], total: 0, page: Number.isInteger(page) && page > 0 ? page : 1, limit: Number.isInteger(limit) && limit > 0 ? Math.min(limit, 100) : 20 } };
    }
    if (req.method === 'GET' && req.path === '/admin/pending/count') return { status: 200, body: { plugins: 0, themes: 0, total: 0 } };
    if (req.method === 'GET' && LISTS.test(req.path)) return { status: 200, body: [] };
    // Nothing is there to read or change: a 404 naming why (never a 5xx: nothing is down).
    throw new NotFoundError('Marketplace', 'No marketplace is configured on this platform');
  }

  async plugin(): Promise<null> {
    return null;
  }

  async versions(): Promise<[]> {
    return [];
  }

  async validateLicense(): Promise<LicenseCheck> {
    return { valid: true, reason: 'no marketplace configured: paid validation skipped' };
  }
}
