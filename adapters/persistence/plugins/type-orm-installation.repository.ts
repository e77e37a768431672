import type { DataSource } from 'typeorm';
import type { Installation, InstallationState } from '../../../core/plugins/domain/installation';
import type { InstallationRepository, NewInstallation, PluginRun } from '../../../core/plugins/ports/installation-repository.port';
import { NotFoundError } from '../../../core/shared/errors';
import { isUuid } from '../../../core/shared/ids';
import { affected, one, rows, uniquely } from '../sql';

interface Row {
  id: string;
  plugin_id: string;
  application_id: string;
  owner_id: string;
  state: InstallationState;
  version: string;
  settings: Record<string, unknown>;
  sealed_secrets: Record<string, string>;
  call_count: string | number;
  failure_count: string | number;
  consecutive_failures: number;
  last_error: string | null;
  last_error_at: Date | null;
  deactivation_reason: string | null;
  installed_at: Date;
  updated_at: Date;
}

const toInstallation = (r: Row): Installation => ({
  id: r.id,
  pluginId: r.plugin_id,
  applicationId: r.application_id,
  ownerId: r.owner_id,
  state: r.state,
  version: r.version,
  settings: r.settings ?? {},
  sealedSecrets: r.sealed_secrets ?? {},
  callCount: Number(r.call_count),
  failureCount: Number(r.failure_count),
  consecutiveFailures: r.consecutive_failures,
  lastError: r.last_error,
  lastErrorAt: r.last_error_at ? new Date(r.last_error_at) : null,
  deactivationReason: r.deactivation_reason,
  installedAt: new Date(r.installed_at),
  updatedAt: new Date(r.updated_at),
});

const SELECT = `SELECT i.*, a.owner_id FROM plugin_installations i JOIN applications a ON a.id = i.application_id`;
/** RETURNING cannot join: the owner comes from a subquery. */
const RETURNING = `RETURNING *, (SELECT owner_id FROM applications WHERE id = application_id) AS owner_id`;

export class TypeOrmInstallationRepository implements InstallationRepository {
  constructor(private readonly db: DataSource) {}

  async create(i: NewInstallation): Promise<Installation> {
    const row = await uniquely(
      () => one<Row>(this.db, `INSERT INTO plugin_installations (plugin_id, application_id, state, version, settings, sealed_secrets) VALUES ($1, $2, 'installed', $3, $4::jsonb, $5::jsonb) ${RETURNING}`, [i.pluginId, i.applicationId, i.version, JSON.stringify(i.settings), JSON.stringify(i.sealedSecrets)]),
      () => 'This plugin is already installed in the application',
    );
    return toInstallation(row!);
  }

  async findById(id: string) {
    if (!isUuid(id)) return null;
    const row = await one<Row>(this.db, `${SELECT} WHERE i.id = $1`, [id]);
    return row && toInstallation(row);
  }

  async findByPlugin(applicationId: string, pluginId: string) {
    const row = await one<Row>(this.db, `${SELECT} WHERE i.application_id = $1 AND i.plugin_id = $2`, [applicationId, pluginId]);
    return row && toInstallation(row);
  }

  async listByApplication(applicationId: string) {
    return (await rows<Row>(this.db, `${SELECT} WHERE i.application_id = $1 ORDER BY i.installed_at, i.id`, [applicationId])).map(toInstallation);
  }

  async listActive(applicationId: string) {
    return (await rows<Row>(this.db, `${SELECT} WHERE i.application_id = $1 AND i.state = 'activated' ORDER BY i.installed_at, i.id`, [applicationId])).map(toInstallation);
  }

  async listAllActive() {
    return (await rows<Row>(this.db, `${SELECT} WHERE i.state = 'activated'`)).map(toInstallation);
  }

  async move(id: string, from: InstallationState[], to: InstallationState, reason: string | null = null) {
    const row = await one<Row>(
      this.db,
      `UPDATE plugin_installations SET state = $3, deactivation_reason = $4, updated_at = now(),
         consecutive_failures = CASE WHEN $3 = 'activated' THEN 0 ELSE consecutive_failures END
       WHERE id = $1 AND state = ANY($2::text[]) ${RETURNING}`,
      [id, from, to, reason],
    );
    return row && toInstallation(row);
  }

  async setVersion(id: string, version: string) {
    const row = await one<Row>(this.db, `UPDATE plugin_installations SET version = $2, updated_at = now() WHERE id = $1 ${RETURNING}`, [id, version]);
    if (!row) throw new NotFoundError('Plugin installation');
    return toInstallation(row);
  }

  async updateSettings(id: string, settings: Record<string, unknown>, sealedSecrets: Record<string, string>) {
    const row = await one<Row>(
      this.db,
      `UPDATE plugin_installations SET settings = $2::jsonb, sealed_secrets = $3::jsonb, updated_at = now() WHERE id = $1 ${RETURNING}`,
      [id, JSON.stringify(settings), JSON.stringify(sealedSecrets)],
    );
    if (!row) throw new NotFoundError('Plugin installation');
    return toInstallation(row);
  }

  async delete(id: string, from: InstallationState[]) {
    return (await affected(this.db, `DELETE FROM plugin_installations WHERE id = $1 AND state = ANY($2::text[])`, [id, from])) > 0;
  }

  async addCalls(counts: Map<string, number>) {
    if (counts.size === 0) return;
    await this.db.query(
      `UPDATE plugin_installations i SET call_count = i.call_count + c.n FROM unnest($1::uuid[], $2::int[]) AS c(id, n) WHERE i.id = c.id`,
      [[...counts.keys()], [...counts.values()]],
    );
  }

  async recordFailure(id: string, error: string) {
    const row = await one<{ consecutive_failures: number }>(
      this.db,
      `UPDATE plugin_installations SET failure_count = failure_count + 1, consecutive_failures = consecutive_failures + 1,
         last_error = $2, last_error_at = now() WHERE id = $1 RETURNING consecutive_failures`,
      [id, error],
    );
    return row?.consecutive_failures ?? 0;
  }

  async resetConsecutiveFailures(id: string) {
    await this.db.query(`UPDATE plugin_installations SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures > 0`, [id]);
  }

  async recordRun(run: Omit<PluginRun, 'id' | 'at'>) {
    await this.db.query(`INSERT INTO plugin_runs (installation_id, kind, name, ok, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6)`, [
      run.installationId,
      run.kind,
      run.name.slice(0, 300),
      run.ok,
      run.error,
      Math.round(run.durationMs),
    ]);
    // The run log keeps the latest 200 runs per installation.
    await this.db.query(
      `DELETE FROM plugin_runs WHERE installation_id = $1 AND id IN (SELECT id FROM plugin_runs WHERE installation_id = $1 ORDER BY at DESC OFFSET 200)`,
      [run.installationId],
    );
  }

  async listRuns(installationId: string, limit: number): Promise<PluginRun[]> {
    const found = await rows<{ id: string; installation_id: string; kind: string; name: string; ok: boolean; error: string | null; duration_ms: number; at: Date }>(
      this.db,
      `SELECT * FROM plugin_runs WHERE installation_id = $1 ORDER BY at DESC, id LIMIT $2`,
      [installationId, limit],
    );
    return found.map((r) => ({ id: r.id, installationId: r.installation_id, kind: r.kind, name: r.name, ok: r.ok, error: r.error, durationMs: r.duration_ms, at: new Date(r.at) }));
  }
}

