import type { DataSource } from 'typeorm';
import type {
  LicenseCheckRecord, LicenseCheckStore, MarketplaceInstallation, MarketplaceInstallationRepository, UpdateEntry,
} from '../../../core/marketplace/ports/marketplace-installation-repository.port';
import { isUuid } from '../../../core/shared/ids';
import { affected, one, rows } from '../sql';

interface Row {
  installation_id: string;
  application_id: string;
  owner_id: string;
  marketplace_plugin_id: string;
  plugin_id: string;
  version: string;
  is_paid: boolean;
  license_unreachable_since: Date | null;
  state: MarketplaceInstallation['state'];
}

const SELECT = `
  SELECT m.installation_id, m.marketplace_plugin_id, m.version, m.is_paid, m.license_unreachable_since,
         i.application_id, i.plugin_id, i.state, a.owner_id
  FROM marketplace_installations m
  JOIN plugin_installations i ON i.id = m.installation_id
  JOIN applications a ON a.id = i.application_id`;

const toLink = (r: Row): MarketplaceInstallation => ({
  installationId: r.installation_id,
  applicationId: r.application_id,
  ownerId: r.owner_id,
  marketplacePluginId: r.marketplace_plugin_id,
  pluginId: r.plugin_id,
  version: r.version,
  isPaid: r.is_paid,
  licenseUnreachableSince: r.license_unreachable_since ? new Date(r.license_unreachable_since) : null,
  state: r.state,
});

interface UpdateRow {
  installation_id: string;
  plugin_id: string;
  marketplace_plugin_id: string;
  latest_version: string;
  current_version: string;
  changelog: string;
}

const toEntry = (r: UpdateRow): UpdateEntry => ({
  installedPluginId: r.installation_id,
  pluginId: r.plugin_id,
  marketplacePluginId: r.marketplace_plugin_id,
  latestVersion: r.latest_version,
  currentVersion: r.current_version,
  changelog: r.changelog,
});

const SELECT_UPDATES = `
  SELECT u.installation_id, i.plugin_id, u.marketplace_plugin_id, u.latest_version, u.current_version, u.changelog
  FROM marketplace_plugin_updates u
  JOIN plugin_installations i ON i.id = u.installation_id
  JOIN applications a ON a.id = i.application_id`;

/** Marketplace links of plugin installations, their update entries, and license answers (SQL). */
export class TypeOrmMarketplaceInstallationRepository implements MarketplaceInstallationRepository, LicenseCheckStore {
  constructor(private readonly db: DataSource) {}

  async link(i: { installationId: string; marketplacePluginId: string; version: string; isPaid: boolean }): Promise<void> {
    await this.db.query(
      `INSERT INTO marketplace_installations (installation_id, marketplace_plugin_id, version, is_paid) VALUES ($1, $2, $3, $4)
       ON CONFLICT (installation_id) DO UPDATE SET marketplace_plugin_id = EXCLUDED.marketplace_plugin_id, version = EXCLUDED.version, is_paid = EXCLUDED.is_paid`,
      [i.installationId, i.marketplacePluginId, i.version, i.isPaid],
    );
  }

  async find(installationId: string): Promise<MarketplaceInstallation | null> {
    if (!isUuid(installationId)) return null;
    const row = await one<Row>(this.db, `${SELECT} WHERE m.installation_id = $1`, [installationId]);
    return row && toLink(row);
  }

  async findByItem(applicationId: string, marketplacePluginId: string): Promise<MarketplaceInstallation | null> {
    const row = await one<Row>(this.db, `${SELECT} WHERE i.application_id = $1 AND m.marketplace_plugin_id = $2`, [applicationId, marketplacePluginId]);
    return row && toLink(row);
  }

  async page(afterId: string | null, limit: number): Promise<MarketplaceInstallation[]> {
    const found = afterId
      ? await rows<Row>(this.db, `${SELECT} WHERE m.installation_id > $1 ORDER BY m.installation_id LIMIT $2`, [afterId, limit])
      : await rows<Row>(this.db, `${SELECT} ORDER BY m.installation_id LIMIT $1`, [limit]);
    return found.map(toLink);
  }

  async ofOwner(ownerId: string, marketplacePluginIds: string[]): Promise<MarketplaceInstallation[]> {
    if (!marketplacePluginIds.length) return [];
    return (
      await rows<Row>(this.db, `${SELECT} WHERE a.owner_id = $1 AND m.marketplace_plugin_id = ANY($2::uuid[]) ORDER BY m.installation_id`, [ownerId, marketplacePluginIds])
    ).map(toLink);
  }

  async activePaid(): Promise<MarketplaceInstallation[]> {
    return (await rows<Row>(this.db, `${SELECT} WHERE m.is_paid AND i.state = 'activated' ORDER BY m.installation_id`)).map(toLink);
  }

  async setVersion(installationId: string, version: string): Promise<void> {
    await this.db.query(`UPDATE marketplace_installations SET version = $2 WHERE installation_id = $1`, [installationId, version]);
  }

  async markUnreachable(installationId: string, at: Date): Promise<Date> {
    const row = await one<{ since: Date }>(
      this.db,
      `UPDATE marketplace_installations SET license_unreachable_since = COALESCE(license_unreachable_since, $2) WHERE installation_id = $1 RETURNING license_unreachable_since AS since`,
      [installationId, at],
    );
    return row ? new Date(row.since) : at;
  }

  async clearUnreachable(installationId: string): Promise<void> {
    await this.db.query(`UPDATE marketplace_installations SET license_unreachable_since = NULL WHERE installation_id = $1`, [installationId]);
  }

  async recordUpdate(e: Omit<UpdateEntry, 'pluginId'>): Promise<void> {
    await this.db.query(
      `INSERT INTO marketplace_plugin_updates (installation_id, marketplace_plugin_id, current_version, latest_version, changelog) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (installation_id) DO UPDATE SET current_version = EXCLUDED.current_version, latest_version = EXCLUDED.latest_version, changelog = EXCLUDED.changelog, found_at = now()`,
      [e.installedPluginId, e.marketplacePluginId, e.currentVersion, e.latestVersion, e.changelog],
    );
  }

  async clearUpdate(installationId: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM marketplace_plugin_updates WHERE installation_id = $1`, [installationId])) > 0;
  }

  async updatesOf(ownerId: string): Promise<UpdateEntry[]> {
    return (await rows<UpdateRow>(this.db, `${SELECT_UPDATES} WHERE a.owner_id = $1 ORDER BY u.found_at DESC, u.installation_id`, [ownerId])).map(toEntry);
  }

  async countUpdatesOf(ownerId: string): Promise<number> {
    const row = await one<{ n: string | number }>(this.db, `SELECT count(*) AS n FROM marketplace_plugin_updates u JOIN plugin_installations i ON i.id = u.installation_id JOIN applications a ON a.id = i.application_id WHERE a.owner_id = $1`, [ownerId]);
    return Number(row?.n ?? 0);
  }

  async updateOf(installationId: string): Promise<UpdateEntry | null> {
    const row = await one<UpdateRow>(this.db, `${SELECT_UPDATES} WHERE u.installation_id = $1`, [installationId]);
    return row && toEntry(row);
  }

  async get(userId: string, marketplacePluginId: string): Promise<LicenseCheckRecord | null> {
    const row = await one<{ valid: boolean; reason: string | null; checked_at: Date }>(
      this.db,
      `SELECT valid, reason, checked_at FROM marketplace_license_checks WHERE user_id = $1 AND marketplace_plugin_id = $2`,
      [userId, marketplacePluginId],
    );
    return row && { valid: row.valid, reason: row.reason, checkedAt: new Date(row.checked_at) };
  }

  async put(userId: string, marketplacePluginId: string, r: LicenseCheckRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO marketplace_license_checks (user_id, marketplace_plugin_id, valid, reason, checked_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, marketplace_plugin_id) DO UPDATE SET valid = EXCLUDED.valid, reason = EXCLUDED.reason, checked_at = EXCLUDED.checked_at`,
      [userId, marketplacePluginId, r.valid, r.reason, r.checkedAt],
    );
  }
}
