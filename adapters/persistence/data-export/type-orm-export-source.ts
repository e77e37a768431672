import type { DataSource } from 'typeorm';
import type {
  ConversationStats,
  DayStats,
  ExportedApplication,
  ExportedConversation,
  ExportedMessage,
} from '../../../core/data-export/domain/data-export';
import type { ExportSource } from '../../../core/data-export/ports/data-export.ports';
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
  created_at: Date;
}
interface MessageRow {
  seq: string;
  role: 'user' | 'assistant';
  content: string;
  status: 'complete' | 'interrupted' | 'failed';
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
        const configs = await rows<{ name: string; provider: string; model_id: string; settings: Record<string, unknown>; is_default: boolean }>(
          this.db,
          `SELECT name, provider, model_id, settings, is_default FROM model_configs WHERE application_id = $1 ORDER BY created_at, id`,
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
          modelConfigs: configs.map((c) => ({ name: c.name, provider: c.provider, modelId: c.model_id, settings: c.settings, isDefault: c.is_default })),
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

  private async *conversationsWhere(condition: string, value: string): AsyncIterable<ExportedConversation> {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page: ConversationRow[] = await rows<ConversationRow>(
        this.db,
        `SELECT c.id, c.application_id, c.title, c.status, c.source, c.created_at
           FROM conversations c JOIN applications a ON a.id = c.application_id
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
          createdAt: iso(c.created_at)!,
          messages: this.messages(c.id),
        };
      }
      if (page.length < PAGE) return;
      const last: ConversationRow = page[page.length - 1]!;
      after = { at: last.created_at, id: last.id };
    }
  }

  private async *messages(conversationId: string): AsyncIterable<ExportedMessage> {
    let afterSeq = '0';
    for (;;) {
      const page = await rows<MessageRow>(
        this.db,
        `SELECT seq, role, content, status, provider, model, prompt_tokens, completion_tokens, total_tokens, latency_ms, rating, sources, created_at
           FROM messages WHERE conversation_id = $1 AND seq > $2 AND role <> 'tool' ORDER BY seq LIMIT ${PAGE}`,
        [conversationId, afterSeq],
      );
      for (const m of page) {
        yield {
          role: m.role,
          content: m.content,
          status: m.status,
          provider: m.provider,
          model: m.model,
          promptTokens: m.prompt_tokens,
          completionTokens: m.completion_tokens,
          totalTokens: m.total_tokens,
          latencyMs: m.latency_ms,
          rating: m.rating,
          sources: m.sources ?? null,
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
