import * as yup from 'yup';
import type { RunClaims } from '../../domains/ports/run-claims.port';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { str, validate } from '../../shared/validation';
import { compareVersions, isSemver, newestCompatible } from '../domain/versions';
import type { CatalogVersion, MarketplaceCatalog } from '../ports/marketplace-catalog.port';
import type { MarketplaceInstallation, MarketplaceInstallationRepository, UpdateEntry } from '../ports/marketplace-installation-repository.port';

const PAGE = 200;

/**
 * The daily update check (SPEC 4.9, 8): claimed once per UTC day across instances, it compares every
 * installed marketplace plugin with the newest release that runs on this platform and writes (or
 * removes) its update entry. A marketplace that cannot be reached leaves the entries as they were.
 */
export class CheckMarketplaceUpdatesUseCase {
  constructor(private readonly deps: { catalog: MarketplaceCatalog; links: MarketplaceInstallationRepository; claims: RunClaims; clock: Clock; platformVersion: string }) {}

  async execute(): Promise<{ ran: boolean; checked: number; found: number }> {
    if (!this.deps.catalog.configured) return { ran: false, checked: 0, found: 0 };
    const day = this.deps.clock.now().toISOString().slice(0, 10);
    if (!(await this.deps.claims.claim('marketplace-updates', day))) return { ran: false, checked: 0, found: 0 };
    return { ran: true, ...(await this.checkAll()) };
  }

  /** One pass over every linked installation (the claimed daily run, and tests). */
  async checkAll(): Promise<{ checked: number; found: number }> {
    const versionsOf = new Map<string, Promise<CatalogVersion[]>>();
    let after: string | null = null;
    let checked = 0;
    let found = 0;
    for (;;) {
      const batch: MarketplaceInstallation[] = await this.deps.links.page(after, PAGE);
      if (batch.length === 0) break;
      for (const link of batch) {
        let versions = versionsOf.get(link.marketplacePluginId);
        if (!versions) {
          versions = this.deps.catalog.versions(link.marketplacePluginId);
          versionsOf.set(link.marketplacePluginId, versions);
        }
        const newest = newestCompatible(await versions, this.deps.platformVersion);
        checked++;
        if (newest && isSemver(link.version) && compareVersions(newest.version, link.version) > 0) {
          await this.deps.links.recordUpdate({ installedPluginId: link.installationId, marketplacePluginId: link.marketplacePluginId, latestVersion: newest.version, currentVersion: link.version, changelog: newest.changelog });
          found++;
        } else {
          await this.deps.links.clearUpdate(link.installationId);
        }
      }
      after = batch[batch.length - 1]!.installationId;
    }
    return { checked, found };
  }
}

/** `GET /marketplace/updates` and `/updates/count`: the caller's installations with a newer compatible version. */
export class ListMarketplaceUpdatesUseCase {
  constructor(private readonly deps: { links: MarketplaceInstallationRepository }) {}

  list(actor: Actor): Promise<UpdateEntry[]> {
    return this.deps.links.updatesOf(actor.userId);
  }

  async count(actor: Actor): Promise<{ count: number }> {
    return { count: await this.deps.links.countUpdatesOf(actor.userId) };
  }
}

/** A marketplace installation of one of the caller's applications, else 404. */
export async function ownedLink(links: MarketplaceInstallationRepository, id: unknown, actor: Actor): Promise<MarketplaceInstallation> {
  const link = isUuid(id) ? await links.find(id) : null;
  if (!link || link.ownerId !== actor.userId) throw new NotFoundError('Marketplace installation');
  return link;
}

const markSchema = yup.object({
  newVersion: str().required('newVersion is required').max(100).test('semver', 'newVersion must be a SemVer version such as 1.2.0', (v) => v === undefined || isSemver(v)),
});

/**
 * `PATCH /marketplace/updates/:installedPluginId/mark-updated { newVersion }` (SPEC 3: pending update →
 * cleared): the entry is cleared when `newVersion` is at least its latest version; `success` says whether
 * no update is pending any more.
 */
export class MarkUpdatedUseCase {
  constructor(private readonly deps: { links: MarketplaceInstallationRepository }) {}

  async execute(id: unknown, input: unknown, actor: Actor): Promise<{ success: boolean }> {
    const body = await validate(markSchema, input);
    const link = await ownedLink(this.deps.links, id, actor);
    const entry = await this.deps.links.updateOf(link.installationId);
    if (!entry) return { success: true };
    if (compareVersions(body.newVersion, entry.latestVersion) < 0) return { success: false };
    await this.deps.links.clearUpdate(link.installationId);
    return { success: true };
  }
}
