import type { DataSource } from 'typeorm';
import type {
  ConversationStats,
  DayStats,
  ExportedApplication,
  ExportedConfigVersion,
  ExportedConversation,
  ExportedCounters,
  ExportedMessage,
  ExportedToolCall,
} from '../../../core/data-export/domain/data-export';
import type { ExportSource } from '../../../core/data-export/ports/data-export.ports';
import { toPercent } from '../../../core/model-configs/domain/traffic';
import { rows } from '../sql';

/** Rows per statement: enough to keep round trips few, small enough that a page never weighs much. */
const PAGE = 500;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
const int = (v: string | number | null): number => (v === null ? 0 : Number(v));

interface AppRow {
  id: string;
  name: string;
  description: string;
  allowed_origins: string[];
  created_at: Date;
}
interface ConversationRow {
  id: string;
  application_id: string;
  title: string;
  status: 'active' | 'archived';
  source: 'dashboard' | 'api' | 'widget';
  config_version_id: string | null;
  created_at: Date;
}
interface CounterColumns {
  request_count: number;
  error_count: number;
  avg_latency_ms: number;
  avg_tokens_used: number;
}
interface ConfigRow {
  id: string;
  name: string;
  provider: string;
  model_id: string;
  settings: Record<string, unknown>;
  is_default: boolean;
  control_request_count: number;
  control_error_count: number;
  control_avg_latency_ms: number;
  control_avg_tokens_used: number;
}
interface VersionRow extends CounterColumns {
  id: string;
  config_id: string;
  version: string;
  label: string;
  provider: string;
  model_id: string;
  settings: Record<string, unknown>;
  traffic_share: number;
  is_active: boolean;
  created_at: Date;
}
interface MessageRow {
  seq: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  status: 'complete' | 'interrupted' | 'failed';
  error: string | null;
  config_version_id: string | null;
  tool_calls: ExportedToolCall[] | null;
  tool_call_id: string | null;
  tool_name: string | null;
  is_error: boolean | null;
  metadata: Record<string, unknown> | null;
  provider: string | null;
  model: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  latency_ms: number | null;
  rating: number | null;
  sources: unknown;
  created_at: Date;
}

const counters = (r: CounterColumns): ExportedCounters => ({
  requestCount: r.request_count,
  errorCount: r.error_count,
  avgLatencyMs: Number(r.avg_latency_ms),
  avgTokensUsed: Number(r.avg_tokens_used),
});

const toExportedVersion = (v: VersionRow): ExportedConfigVersion => ({
  clientId: v.id,
  version: v.version,
  label: v.label,
  provider: v.provider,
  modelId: v.model_id,
  settings: v.settings,
  trafficPercent: toPercent(v.traffic_share),
  isActive: v.is_active,
  counters: counters(v),
  createdAt: iso(v.created_at)!,
});

/**
 * An owner's records for an export, read lazily with keyset pages (never OFFSET): the writer pulls
 * the next page only when it has written the last, so memory stays at one page per level whatever
 * the account holds. Only the columns an export may show are selected.
 */
export class TypeOrmExportSource implements ExportSource {
  constructor(private readonly db: DataSource) {}

  async *applications(ownerId: string, withConversations: boolean): AsyncIterable<ExportedApplication> {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page: AppRow[] = await rows<AppRow>(
        this.db,
        `SELECT id, name, description, allowed_origins, created_at FROM applications
          WHERE owner_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
          ORDER BY created_at, id LIMIT ${PAGE}`,
        [ownerId, after?.at ?? null, after?.id ?? null],
      );
      for (const app of page) {
        const configs = await rows<ConfigRow>(
          this.db,
          `SELECT id, name, provider, model_id, settings, is_default,
                  control_request_count, control_error_count, control_avg_latency_ms, control_avg_tokens_used
             FROM model_configs WHERE application_id = $1 ORDER BY created_at, id`,
          [app.id],
        );
        const versions = await rows<VersionRow>(
          this.db,
          `SELECT id, config_id, version, label, provider, model_id, settings, traffic_share, is_active,
                  request_count, error_count, avg_latency_ms, avg_tokens_used, created_at
             FROM model_config_versions WHERE application_id = $1 ORDER BY created_at, id`,
          [app.id],
        );
        const templates = await rows<{ name: string; content: string; is_default: boolean }>(
          this.db,
          `SELECT name, content, is_default FROM prompt_templates WHERE application_id = $1 ORDER BY created_at, id`,
          [app.id],
        );
        yield {
          clientId: app.id,
          name: app.name,
          description: app.description,
          allowedOrigins: app.allowed_origins,
          createdAt: iso(app.created_at)!,
          modelConfigs: configs.map((c) => ({
            name: c.name,
            provider: c.provider,
            modelId: c.model_id,
            settings: c.settings,
            isDefault: c.is_default,
            controlCounters: counters({ request_count: c.control_request_count, error_count: c.control_error_count, avg_latency_ms: c.control_avg_latency_ms, avg_tokens_used: c.control_avg_tokens_used }),
            versions: versions.filter((v) => v.config_id === c.id).map(toExportedVersion),
          })),
          promptTemplates: templates.map((t) => ({ name: t.name, content: t.content, isDefault: t.is_default })),
          conversations: withConversations ? this.conversationsWhere('c.application_id = $1', app.id) : undefined,
        };
      }
      if (page.length < PAGE) return;
      const last: AppRow = page[page.length - 1]!;
      after = { at: last.created_at, id: last.id };
    }
  }

  conversations(ownerId: string): AsyncIterable<ExportedConversation> {
    return this.conversationsWhere('a.owner_id = $1', ownerId);
  }

  /*
   * A/B assignments are exported only while their version exists (a deleted version's id names nothing
   * an import could map); a version of another application is never named.
   */
  private async *conversationsWhere(condition: string, value: string): AsyncIterable<ExportedConversation> {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page: ConversationRow[] = await rows<ConversationRow>(
        this.db,
        `SELECT c.id, c.application_id, c.title, c.status, c.source, v.id AS config_version_id, c.created_at
           FROM conversations c JOIN applications a ON a.id = c.application_id
           LEFT JOIN model_config_versions v ON v.id = c.config_version_id AND v.application_id = c.application_id
          WHERE ${condition} AND ($2::timestamptz IS NULL OR (c.created_at, c.id) > ($2::timestamptz, $3::uuid))
          ORDER BY c.created_at, c.id LIMIT ${PAGE}`,
        [value, after?.at ?? null, after?.id ?? null],
      );
      for (const c of page) {
        yield {
          clientId: c.id,
          applicationClientId: c.application_id,
          title: c.title,
          status: c.status,
          source: c.source,
          configVersionClientId: c.config_version_id,
          createdAt: iso(c.created_at)!,
          messages: this.messages(c.id, c.application_id),
        };
      }
      if (page.length < PAGE) return;
      const last: ConversationRow = page[page.length - 1]!;
      after = { at: last.created_at, id: last.id };
    }
  }

  /** Every stored message of the conversation, in order: tool results and empty answers included. */
  private async *messages(conversationId: string, applicationId: string): AsyncIterable<ExportedMessage> {
    let afterSeq = '0';
    for (;;) {
      const page = await rows<MessageRow>(
        this.db,
        `SELECT m.seq, m.role, m.content, m.status, m.error, m.provider, m.model, m.prompt_tokens, m.completion_tokens, m.total_tokens,
                m.latency_ms, m.rating, m.sources, v.id AS config_version_id, m.tool_calls, m.tool_call_id, m.tool_name, m.is_error, m.metadata, m.created_at
           FROM messages m LEFT JOIN model_config_versions v ON v.id = m.config_version_id AND v.application_id = $3
          WHERE m.conversation_id = $1 AND m.seq > $2 ORDER BY m.seq LIMIT ${PAGE}`,
        [conversationId, afterSeq, applicationId],
      );
      for (const m of page) {
        const tool = m.role === 'tool';
        yield {
          role: m.role,
          content: m.content,
          status: m.status,
          error: m.error,
          provider: m.provider,
          model: m.model,
          promptTokens: m.prompt_tokens,
          completionTokens: m.completion_tokens,
          totalTokens: m.total_tokens,
          latencyMs: m.latency_ms,
          rating: m.rating,
          sources: m.sources ?? null,
          configVersionClientId: m.config_version_id,
          toolCalls: m.tool_calls ?? null,
          toolCallId: tool ? m.tool_call_id : null,
          toolName: tool ? m.tool_name : null,
          isError: tool ? m.is_error === true : null,
          metadata: m.metadata ?? null,
          createdAt: iso(m.created_at)!,
        };
      }
      if (page.length < PAGE) return;
      afterSeq = String(page[page.length - 1]!.seq);
    }
  }

  async *conversationStats(ownerId: string): AsyncIterable<ConversationStats> {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page: Array<{ id: string; application_id: string; source: string; created_at: Date; n: string; u: string; a: string; pt: string; ct: string; tt: string; first_at: Date | null; last_at: Date | null }> =
        await rows(
          this.db,
          `SELECT c.id, c.application_id, c.source, c.created_at,
                  count(m.id) AS n, count(m.id) FILTER (WHERE m.role = 'user') AS u, count(m.id) FILTER (WHERE m.role = 'assistant') AS a,
                  coalesce(sum(m.prompt_tokens), 0) AS pt, coalesce(sum(m.completion_tokens), 0) AS ct, coalesce(sum(m.total_tokens), 0) AS tt,
                  min(m.created_at) AS first_at, max(m.created_at) AS last_at
             FROM (SELECT c.id, c.application_id, c.source, c.created_at
                     FROM conversations c JOIN applications ap ON ap.id = c.application_id
                    WHERE ap.owner_id = $1 AND ($2::timestamptz IS NULL OR (c.created_at, c.id) > ($2::timestamptz, $3::uuid))
                    ORDER BY c.created_at, c.id LIMIT ${PAGE}) c
             LEFT JOIN messages m ON m.conversation_id = c.id
            GROUP BY c.id, c.application_id, c.source, c.created_at
            ORDER BY c.created_at, c.id`,
          [ownerId, after?.at ?? null, after?.id ?? null],
        );
      for (const r of page) {
        yield {
          conversationId: r.id,
          applicationId: r.application_id,
          source: r.source,
          messages: int(r.n),
          userMessages: int(r.u),
          assistantMessages: int(r.a),
          promptTokens: int(r.pt),
          completionTokens: int(r.ct),
          totalTokens: int(r.tt),
          firstMessageAt: iso(r.first_at),
          lastMessageAt: iso(r.last_at),
        };
      }
      if (page.length < PAGE) return;
      const last = page[page.length - 1]!;
      after = { at: last.created_at, id: last.id };
    }
  }

  async *dayStats(ownerId: string): AsyncIterable<DayStats> {
    let after: { day: string; app: string } | null = null;
    for (;;) {
      const page: Array<{ day: string; application_id: string; convs: string; n: string; u: string; a: string; pt: string; ct: string; tt: string }> = await rows(
        this.db,
        `SELECT * FROM (
           SELECT to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, c.application_id::text AS application_id,
                  count(DISTINCT c.id) AS convs, count(*) AS n,
                  count(*) FILTER (WHERE m.role = 'user') AS u, count(*) FILTER (WHERE m.role = 'assistant') AS a,
                  coalesce(sum(m.prompt_tokens), 0) AS pt, coalesce(sum(m.completion_tokens), 0) AS ct, coalesce(sum(m.total_tokens), 0) AS tt
             FROM messages m JOIN conversations c ON c.id = m.conversation_id JOIN applications ap ON ap.id = c.application_id
            WHERE ap.owner_id = $1
            GROUP BY 1, 2) d
          WHERE $2::text IS NULL OR (d.day, d.application_id) > ($2::text, $3::text)
          ORDER BY d.day, d.application_id LIMIT ${PAGE}`,
        [ownerId, after?.day ?? null, after?.app ?? null],
      );
      for (const r of page) {
        yield {
          day: r.day,
          applicationId: r.application_id,
          conversations: int(r.convs),
          messages: int(r.n),
          userMessages: int(r.u),
          assistantMessages: int(r.a),
          promptTokens: int(r.pt),
          completionTokens: int(r.ct),
          totalTokens: int(r.tt),
        };
      }
      if (page.length < PAGE) return;
      const last = page[page.length - 1]!;
      after = { day: last.day, app: last.application_id };
    }
  }
}
