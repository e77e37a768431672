import type { DataSource } from 'typeorm';
import type { ImportedApplication } from '../../../core/data-export/domain/data-import';
import type { ImportStore } from '../../../core/data-export/ports/data-export.ports';
import type { OwnerLimit } from '../../../core/shared/owner-limit';
import { joined, one, rows, uniquely, type Sql } from '../sql';

/** Messages per INSERT statement: few round trips, parameters well under PostgreSQL's limit. */
const MESSAGE_BATCH = 200;

/**
 * Each imported application in one transaction: the application, its configs with their A/B versions,
 * templates, conversations and messages (every kind, with their version assignments), and the client id that makes a re-import skip it. The plan's
 * application limit is checked under the same per-owner advisory lock creation takes.
 */
export class TypeOrmImportStore implements ImportStore {
  constructor(private readonly db: DataSource) {}

  async findImported(ownerId: string, clientId: string): Promise<string | null> {
    const row = await one<{ application_id: string }>(this.db, `SELECT application_id FROM data_imports WHERE owner_id = $1 AND client_id = $2`, [ownerId, clientId]);
    return row?.application_id ?? null;
  }

  /** Inside a unit of work (the caller's, with its events) or, without one, in a transaction of its own. */
  importApplication(ownerId: string, record: ImportedApplication, slug: string, limit: OwnerLimit | null): Promise<string> {
    const ambient = joined(this.db);
    return uniquely(
      () => (ambient !== this.db ? this.store(ambient, ownerId, record, slug, limit) : this.db.transaction((tx) => this.store(tx, ownerId, record, slug, limit))),
      () => 'This application was imported meanwhile, or its slug is taken',
    );
  }

  private async store(tx: Sql, ownerId: string, record: ImportedApplication, slug: string, limit: OwnerLimit | null): Promise<string> {
    await rows(tx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`applications:${ownerId}`]);
    if (limit) {
      const held = (await one<{ n: number }>(tx, `SELECT count(*)::int AS n FROM applications WHERE owner_id = $1`, [ownerId]))?.n ?? 0;
      if (held >= limit.max) throw limit.exceeded();
    }
    const app = await one<{ id: string }>(
      tx,
      `INSERT INTO applications (owner_id, name, description, slug, allowed_origins) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING id`,
      [ownerId, record.name, record.description, slug, JSON.stringify(record.allowedOrigins)],
    );
    const applicationId = app!.id;
    await rows(tx, `INSERT INTO data_imports (owner_id, client_id, application_id) VALUES ($1, $2, $3)`, [ownerId, record.clientId, applicationId]);
    // Lists are read in creation order: one microsecond apart from the transaction's start, so the
    // order is the record's whatever the wall clock does meanwhile.
    const at = `now() + ($7::int * interval '1 microsecond')`;
    // The record's A/B versions by their client ids, for the conversations and messages that name them.
    const versionIds = new Map<string, string>();
    for (const [i, c] of record.modelConfigs.entries()) {
      const k = c.controlCounters;
      const config = await one<{ id: string }>(
        tx,
        `INSERT INTO model_configs (application_id, name, provider, model_id, settings, is_default, created_at, updated_at,
                                   control_request_count, control_error_count, control_avg_latency_ms, control_avg_tokens_used)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, ${at}, ${at}, $8, $9, $10, $11) RETURNING id`,
        [applicationId, c.name, c.provider, c.modelId, JSON.stringify(c.settings), c.isDefault, i, k.requestCount, k.errorCount, k.avgLatencyMs, k.avgTokensUsed],
      );
      for (const [j, v] of c.versions.entries()) {
        const created = `coalesce($14::timestamptz, now() + ($13::int * interval '1 microsecond'))`;
        const version = await one<{ id: string }>(
          tx,
          `INSERT INTO model_config_versions (config_id, application_id, version, label, provider, model_id, settings, traffic_share, is_active,
                                              request_count, error_count, avg_latency_ms, avg_tokens_used, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $15, ${created}, ${created}) RETURNING id`,
          [config!.id, applicationId, v.version, v.label, v.provider, v.modelId, JSON.stringify(v.settings), v.trafficShare, v.isActive,
            v.counters.requestCount, v.counters.errorCount, v.counters.avgLatencyMs, j, v.createdAt, v.counters.avgTokensUsed],
        );
        if (v.clientId !== null) versionIds.set(v.clientId, version!.id);
      }
    }
    // Checked when the record was read: every version named is one of the record's.
    const versionOf = (clientId: string | null): string | null => (clientId === null ? null : versionIds.get(clientId)!);
    for (const [i, t] of record.promptTemplates.entries()) {
      await rows(
        tx,
        `INSERT INTO prompt_templates (application_id, name, content, variables, is_default, created_at, updated_at)
         VALUES ($1, $2, $3, $4::jsonb, $5, ${at.replace('$7', '$6')}, ${at.replace('$7', '$6')})`,
        [applicationId, t.name, t.content, JSON.stringify(t.variables), t.isDefault, i],
      );
    }
    for (const [i, conversation] of record.conversations.entries()) {
      const createdAt = `coalesce($6::timestamptz, now() + ($7::int * interval '1 microsecond'))`;
      const created = await one<{ id: string }>(
        tx,
        `INSERT INTO conversations (application_id, title, status, source, message_count, created_at, updated_at, config_version_id)
         VALUES ($1, $2, $3, $4, $5, ${createdAt}, ${createdAt}, $8) RETURNING id`,
        [applicationId, conversation.title, conversation.status, conversation.source, conversation.messages.length, conversation.createdAt, i, versionOf(conversation.configVersionClientId)],
      );
      for (let start = 0; start < conversation.messages.length; start += MESSAGE_BATCH) {
        const batch = conversation.messages.slice(start, start + MESSAGE_BATCH);
        const params: unknown[] = [];
        const tuples = batch.map((m) => {
          const base = params.length;
          params.push(
            created!.id,
            m.role,
            m.content,
            m.status,
            m.provider,
            m.model,
            m.promptTokens,
            m.completionTokens,
            m.totalTokens,
            m.latencyMs,
            m.rating,
            m.sources === null ? null : JSON.stringify(m.sources),
            m.createdAt,
            m.error,
            versionOf(m.configVersionClientId),
            m.toolCalls === null ? null : JSON.stringify(m.toolCalls),
            m.toolCallId,
            m.toolName,
            m.isError,
            m.metadata === null ? null : JSON.stringify(m.metadata),
          );
          const p = (i: number) => `$${base + i}`;
          return `(${p(1)}::uuid, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}::int, ${p(8)}::int, ${p(9)}::int, ${p(10)}::int, ${p(11)}::smallint, ${p(12)}::jsonb, coalesce(${p(13)}::timestamptz, clock_timestamp()), ${p(14)}, ${p(15)}::uuid, ${p(16)}::jsonb, ${p(17)}, ${p(18)}, ${p(19)}::boolean, ${p(20)}::jsonb)`;
        });
        // Listed in order, so their sequence numbers keep the conversation's order.
        await rows(
          tx,
          `INSERT INTO messages (conversation_id, role, content, status, provider, model, prompt_tokens, completion_tokens, total_tokens, latency_ms, rating, sources, created_at,
                                 error, config_version_id, tool_calls, tool_call_id, tool_name, is_error, metadata)
           VALUES ${tuples.join(', ')} RETURNING seq`,
          params,
        );
      }
    }
    return applicationId;
  }
}
