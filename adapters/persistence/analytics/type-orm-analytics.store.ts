import type { DataSource } from 'typeorm';
import type { AnalyticsScope, ConversationCount, ConversationSlice, RatingCount, ToolCallCount, RollupRow } from '../../../core/analytics/domain/analytics';
import type { AnalyticsStore } from '../../../core/analytics/ports/analytics-store.port';
import type { ConversationSource } from '../../../core/conversations/domain/conversation';
import { rows } from '../sql';
import { visibleApplicationIds } from '../teams/visibility';

const COUNTERS = ['messages_sent', 'messages_received', 'prompt_tokens', 'completion_tokens', 'errors', 'api_calls', 'widget_loads'] as const;

/** A day as `YYYY-MM-DD`: days are read as text (drivers differ on `date`), bounds are UTC midnights. */
const dayText = (v: string | Date): string => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
const n = (v: string | number | null): number => (v === null ? 0 : Number(v));

/** The analytics rollup (`analytics_daily`) and the stored conversations' counts, in PostgreSQL / PGlite. */
export class TypeOrmAnalyticsStore implements AnalyticsStore {
  constructor(private readonly db: DataSource) {}

  async add(list: RollupRow[]): Promise<void> {
    if (list.length === 0) return;
    // One order for every writer, so two instances flushing the same slices never wait on each other in a cycle.
    const sorted = [...list].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
    const col = <K extends keyof RollupRow>(k: K) => sorted.map((r) => r[k]);
    await rows(
      this.db,
      `INSERT INTO analytics_daily AS a (application_id, day, source, provider, model, key_kind, ${COUNTERS.join(', ')})
       SELECT u.application_id, u.day, u.source, u.provider, u.model, u.key_kind, ${COUNTERS.map((c) => `u.${c}`).join(', ')}
         FROM unnest($1::uuid[], $2::date[], $3::text[], $4::text[], $5::text[], $6::text[],
                     $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[]) WITH ORDINALITY
              AS u(application_id, day, source, provider, model, key_kind, ${COUNTERS.join(', ')}, ord)
        WHERE EXISTS (SELECT 1 FROM applications WHERE id = u.application_id)
        ORDER BY u.ord
       ON CONFLICT (application_id, day, source, provider, model, key_kind) DO UPDATE SET
         ${COUNTERS.map((c) => `${c} = a.${c} + EXCLUDED.${c}`).join(', ')}`,
      [
        col('applicationId'),
        col('day'),
        col('source'),
        col('provider'),
        col('model'),
        col('keyKind'),
        col('messagesSent'),
        col('messagesReceived'),
        col('promptTokens'),
        col('completionTokens'),
        col('errors'),
        col('apiCalls'),
        col('widgetLoads'),
      ],
    );
  }

  async rollup(scope: AnalyticsScope): Promise<Array<Omit<RollupRow, 'applicationId'>>> {
    if (scope.applicationIds.length === 0) return [];
    type Row = { day: string | Date; source: ConversationSource; provider: string; model: string; key_kind: RollupRow['keyKind'] } & Record<(typeof COUNTERS)[number], string>;
    const found = await rows<Row>(
      this.db,
      `SELECT day::text AS day, source, provider, model, key_kind, ${COUNTERS.map((c) => `sum(${c}) AS ${c}`).join(', ')}
         FROM analytics_daily
        WHERE application_id = ANY($1::uuid[]) AND day >= $2::date AND day < $3::date
        GROUP BY 1, source, provider, model, key_kind`,
      [scope.applicationIds, dayText(scope.from), dayText(scope.to)],
    );
    return found.map((r) => ({
      day: dayText(r.day),
      source: r.source,
      provider: r.provider,
      model: r.model,
      keyKind: r.key_kind,
      messagesSent: n(r.messages_sent),
      messagesReceived: n(r.messages_received),
      promptTokens: n(r.prompt_tokens),
      completionTokens: n(r.completion_tokens),
      errors: n(r.errors),
      apiCalls: n(r.api_calls),
      widgetLoads: n(r.widget_loads),
    }));
  }

  async conversationCounts(scope: AnalyticsScope): Promise<ConversationCount[]> {
    if (scope.applicationIds.length === 0) return [];
    const found = await rows<{ day: string | Date; source: ConversationSource; conversations: string }>(
      this.db,
      `SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, source, count(*) AS conversations
         FROM conversations
        WHERE application_id = ANY($1::uuid[]) AND created_at >= $2 AND created_at < $3
        GROUP BY 1, 2`,
      [scope.applicationIds, scope.from, scope.to],
    );
    return found.map((r) => ({ day: dayText(r.day), source: r.source, conversations: n(r.conversations) }));
  }

  async conversationSlices(scope: AnalyticsScope): Promise<ConversationSlice[]> {
    if (scope.applicationIds.length === 0) return [];
    const found = await rows<{ day: string | Date; source: ConversationSource; conversations: string; messages: string; seconds: number | null; longest_messages: number | null; longest_seconds: number | null }>(
      this.db,
      `SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, source, count(*) AS conversations, sum(message_count) AS messages,
              sum(extract(epoch FROM updated_at - created_at))::float8 AS seconds,
              max(message_count) AS longest_messages, max(extract(epoch FROM updated_at - created_at))::float8 AS longest_seconds
         FROM conversations
        WHERE application_id = ANY($1::uuid[]) AND created_at >= $2 AND created_at < $3
        GROUP BY 1, 2`,
      [scope.applicationIds, scope.from, scope.to],
    );
    return found.map((r) => ({
      day: dayText(r.day),
      source: r.source,
      conversations: n(r.conversations),
      messages: n(r.messages),
      durationSeconds: Math.max(0, n(r.seconds)),
      longestMessages: n(r.longest_messages),
      longestSeconds: Math.max(0, n(r.longest_seconds)),
    }));
  }

  async ratings(scope: AnalyticsScope): Promise<RatingCount[]> {
    if (scope.applicationIds.length === 0) return [];
    const found = await rows<{ rating: number; count: string }>(
      this.db,
      `SELECT m.rating, count(*) AS count
         FROM conversations c JOIN messages m ON m.conversation_id = c.id AND m.rating IS NOT NULL
        WHERE c.application_id = ANY($1::uuid[]) AND c.created_at >= $2 AND c.created_at < $3
        GROUP BY m.rating`,
      [scope.applicationIds, scope.from, scope.to],
    );
    return found.map((r) => ({ rating: Number(r.rating), count: n(r.count) }));
  }

  async toolCalls(scope: AnalyticsScope): Promise<ToolCallCount[]> {
    if (scope.applicationIds.length === 0) return [];
    const found = await rows<{ name: string; calls: string; failures: string; average_ms: number | null }>(
      this.db,
      `SELECT m.tool_name AS name, count(*) AS calls, count(*) FILTER (WHERE m.is_error) AS failures, avg(m.latency_ms)::float8 AS average_ms
         FROM conversations c JOIN messages m ON m.conversation_id = c.id AND m.role = 'tool'
        WHERE c.application_id = ANY($1::uuid[]) AND c.created_at >= $2 AND c.created_at < $3
        GROUP BY m.tool_name ORDER BY m.tool_name`,
      [scope.applicationIds, scope.from, scope.to],
    );
    return found.map((r) => ({ name: r.name, calls: n(r.calls), failures: n(r.failures), averageMs: Math.round(Number(r.average_ms ?? 0)) }));
  }

  async applicationsOf(userId: string, teamId?: string | null): Promise<string[]> {
    return (await rows<{ id: string }>(this.db, visibleApplicationIds(teamId, '$1', '$2'), [userId, ...(teamId ? [teamId] : [])])).map((r) => r.id);
  }
}

const keyOf = (r: RollupRow): string => JSON.stringify([r.applicationId, r.day, r.source, r.provider, r.model, r.keyKind]);
