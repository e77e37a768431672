import type { Actor } from '../../shared/actor';
import { UnauthorizedError, UpstreamError } from '../../shared/errors';
import { parsePageRequest, type Page } from '../../shared/pagination';
import type { MarketplaceCatalog } from '../ports/marketplace-catalog.port';
import type { MarketplaceInstallation, MarketplaceInstallationRepository } from '../ports/marketplace-installation-repository.port';
import { single } from './browse.use-cases';
import { LICENSE_GRACE_MS } from './paid-licenses';

/** One of the caller's installations of a licensed plugin, as the license check last left it. */
export interface LicensedInstallationView {
  installationId: string;
  applicationId: string;
  state: MarketplaceInstallation['state'];
  /** Set while the marketplace cannot be reached and the installation runs on its grace period. */
  graceEndsAt: string | null;
}

/** A license the caller holds, from the marketplace, with where they installed the plugin. */
export interface MyLicenseView {
  id: string;
  plugin: { id: string; name: string; displayName: string; slug: string; version: string; author: string; iconUrl: string | null; price: number | null; isActive: boolean };
  status: 'active' | 'revoked';
  expiresAt: string | null;
  createdAt: string;
  installations: LicensedInstallationView[];
}

/**
 * `GET /api/marketplace/licenses`: the caller's own licenses, newest first, paged like every list (400 on bad
 * paging before the marketplace is asked). Only the fields named here pass on, whatever the marketplace sent.
 */
export class ListMyMarketplaceLicensesUseCase {
  constructor(private readonly deps: { catalog: MarketplaceCatalog; links: MarketplaceInstallationRepository }) {}

  async execute(query: Record<string, unknown>, actor: Actor | undefined): Promise<Page<MyLicenseView>> {
    if (!actor) throw new UnauthorizedError();
    const page = parsePageRequest({ page: single(query, 'page'), limit: single(query, 'limit') });
    const res = await this.deps.catalog.forward({ method: 'GET', path: '/licenses', query: { page: String(page.page), limit: String(page.limit) }, actor });
    const body = res.body as { data?: unknown; total?: unknown } | null;
    if (res.status !== 200 || !body || !Array.isArray(body.data) || typeof body.total !== 'number') {
      throw new UpstreamError(`The marketplace answered ${res.status} to the license list`);
    }
    const held = (body.data as Record<string, unknown>[]).map(pick);
    const links = await this.deps.links.ofOwner(actor.userId, [...new Set(held.map((l) => l.plugin.id))]);
    const data = held.map((l) => ({ ...l, installations: links.filter((k) => k.marketplacePluginId === l.plugin.id).map(toInstallationView) }));
    return { data, total: body.total, page: page.page, limit: page.limit };
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function pick(raw: Record<string, unknown>): Omit<MyLicenseView, 'installations'> {
  const p = (raw.plugin && typeof raw.plugin === 'object' ? raw.plugin : {}) as Record<string, unknown>;
  return {
    id: str(raw.id),
    plugin: {
      id: str(p.id),
      name: str(p.name),
      displayName: str(p.displayName),
      slug: str(p.slug),
      version: str(p.version),
      author: str(p.author),
      iconUrl: strOrNull(p.iconUrl),
      price: typeof p.price === 'number' ? p.price : null,
      isActive: p.isActive === true,
    },
    status: raw.status === 'revoked' ? 'revoked' : 'active',
    expiresAt: strOrNull(raw.expiresAt),
    createdAt: str(raw.createdAt),
  };
}

function toInstallationView(link: MarketplaceInstallation): LicensedInstallationView {
  const graceEndsAt = link.isPaid && link.licenseUnreachableSince ? new Date(link.licenseUnreachableSince.getTime() + LICENSE_GRACE_MS).toISOString() : null;
  return { installationId: link.installationId, applicationId: link.applicationId, state: link.state, graceEndsAt };
}
