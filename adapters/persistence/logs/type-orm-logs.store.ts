import type { DataSource } from 'typeorm';
import type { ConversationSource } from '../../../core/conversations/domain/conversation';
import type { MessageRow } from '../conversations/type-orm-conversation.repository';
import type { LogChannel, LogFilter, LogRow } from '../../../core/logs/domain/logs';
import type { LogMessage, LogsStore } from '../../../core/logs/ports/logs-store.port';
import { one, rows } from '../sql';

interface LogRowRecord {
  id: string;
  title: string;
  status: 'active' | 'archived';
  source: ConversationSource;
  api_key_id: string | null;
  api_key_name: string | null;
  message_count: number;
  created_at: Date;
  updated_at: Date;
  first_message: string | null;
  usage: Array<{ provider: string; model: string; prompt: number | string; completion: number | string }> | null;
  rating_up: number | string;
  rating_down: number | string;
  rating_average: number | string | null;
  failed_answers: number | string;
  tool_calls: number | string;
}

/** A message row with what the logs add: who answered (from its metadata) and the annotation made of it. */
interface MessageRecord extends Omit<MessageRow, 'metadata'> {
  answered_by: string | null;
  annotation_id: string | null;
}

/** How a channel reads in SQL over `c.source` and `c.api_key_id` (the rule of `channelOf`). */
const CHANNEL_SQL: Record<LogChannel, string> = {
  console: `c.source = 'dashboard'`,
  widget: `(c.source = 'widget' AND c.api_key_id IS NOT NULL)`,
  hosted_page: `(c.source = 'widget' AND c.api_key_id IS NULL)`,
  api: `(c.source = 'api' AND c.api_key_id IS NOT NULL)`,
  workflow: `(c.source = 'api' AND c.api_key_id IS NULL)`,
};

/** The longest first message a row carries, in characters. */
const FIRST_MESSAGE_LENGTH = 300;

/** The row of a conversation, with its totals read from its own messages (the messages index by conversation). */
const ROW_COLUMNS = `
  c.id, c.title, c.status, c.source, c.api_key_id, k.name AS api_key_name, c.message_count, c.created_at, c.updated_at,
  (SELECT left(m.content, ${FIRST_MESSAGE_LENGTH}) FROM messages m WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.seq LIMIT 1) AS first_message,
  (SELECT json_agg(json_build_object('provider', u.provider, 'model', u.model, 'prompt', u.prompt, 'completion', u.completion))
     FROM (SELECT m.provider, m.model, sum(coalesce(m.prompt_tokens, 0)) AS prompt, sum(coalesce(m.completion_tokens, 0)) AS completion
             FROM messages m WHERE m.conversation_id = c.id AND m.role = 'assistant' AND m.provider IS NOT NULL AND m.model IS NOT NULL
            GROUP BY m.provider, m.model) u) AS usage,
  s.rating_up, s.rating_down, s.rating_average, s.failed_answers, s.tool_calls`;

const STATS_JOIN = `
  LEFT JOIN api_keys k ON k.id = c.api_key_id
  CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE m.rating >= 4) AS rating_up,
           count(*) FILTER (WHERE m.rating <= 2) AS rating_down,
           avg(m.rating) AS rating_average,
           count(*) FILTER (WHERE m.role = 'assistant' AND m.status = 'failed') AS failed_answers,
           coalesce(sum(jsonb_array_length(m.tool_calls)) FILTER (WHERE m.tool_calls IS NOT NULL AND jsonb_typeof(m.tool_calls) = 'array'), 0) AS tool_calls
      FROM messages m WHERE m.conversation_id = c.id) s`;

const toRow = (r: LogRowRecord): LogRow => ({
  id: r.id,
  title: r.title,
  status: r.status,
  source: r.source,
  apiKeyId: r.api_key_id,
  apiKeyName: r.api_key_name,
  firstMessage: r.first_message,
  messageCount: Number(r.message_count),
  usage: (r.usage ?? []).map((u) => ({ provider: u.provider, model: u.model, promptTokens: Number(u.prompt), completionTokens: Number(u.completion) })),
  ratingUp: Number(r.rating_up),
  ratingDown: Number(r.rating_down),
  ratingAverage: r.rating_average === null ? null : Math.round(Number(r.rating_average) * 100) / 100,
  failedAnswers: Number(r.failed_answers),
  toolCalls: Number(r.tool_calls),
  createdAt: new Date(r.created_at),
  lastActivityAt: new Date(r.updated_at),
});

const toMessage = (r: MessageRecord): LogMessage => ({
  id: r.id,
  conversationId: r.conversation_id,
  role: r.role,
  content: r.content,
  status: r.status,
  provider: r.provider,
  model: r.model,
  usage: r.total_tokens === null ? null : { promptTokens: r.prompt_tokens ?? 0, completionTokens: r.completion_tokens ?? 0, totalTokens: r.total_tokens },
  latencyMs: r.latency_ms,
  error: r.error,
  configVersionId: r.config_version_id,
  sources: r.sources,
  rating: r.rating,
  toolCalls: r.tool_calls,
  toolCallId: r.tool_call_id,
  toolName: r.tool_name,
  isError: r.is_error,
  answeredByAnnotationId: r.answered_by,
  annotationId: r.annotation_id,
  createdAt: new Date(r.created_at),
});

/**
 * The logs in PostgreSQL or PGlite (docs/logs.md). The list walks the application's conversations on
 * `conversations_activity_idx` (application, last activity); each filter is an index-backed semi-join on the
 * conversation's messages, the text search on the full-text index of message contents; the totals of a row
 * are read for the page's rows only.
 */
export class TypeOrmLogsStore implements LogsStore {
  constructor(private readonly db: DataSource) {}

  async list(applicationId: string, filter: LogFilter, offset: number, limit: number): Promise<{ items: LogRow[]; total: number }> {
    const params: unknown[] = [applicationId];
    const where = [`c.application_id = $1`];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.channels?.length) where.push(`(${filter.channels.map((ch) => CHANNEL_SQL[ch]).join(' OR ')})`);
    if (filter.from) where.push(`c.updated_at >= ${add(filter.from)}`);
    if (filter.to) where.push(`c.updated_at < ${add(filter.to)}`);
    const having = (condition: string, present = true) =>
      `${present ? '' : 'NOT '}EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND ${condition})`;
    if (filter.rating === 'rated') where.push(having(`m.rating IS NOT NULL`));
    if (filter.rating === 'unrated') where.push(having(`m.rating IS NOT NULL`, false));
    if (filter.rating === 'good') where.push(having(`m.rating >= 4`));
    if (filter.rating === 'bad') where.push(having(`m.rating <= 2`));
    if (filter.errors !== undefined) where.push(having(`m.role = 'assistant' AND m.status = 'failed'`, filter.errors));
    if (filter.tools !== undefined) where.push(having(`m.role = 'assistant' AND m.tool_calls IS NOT NULL`, filter.tools));
    if (filter.search) {
      where.push(`c.id IN (SELECT m.conversation_id FROM messages m WHERE to_tsvector('simple', m.content) @@ plainto_tsquery('simple', ${add(filter.search)}))`);
    }
    const condition = where.join(' AND ');
    const countParams = [...params];
    const page = await rows<LogRowRecord>(
      this.db,
      `SELECT ${ROW_COLUMNS}
         FROM (SELECT c.* FROM conversations c WHERE ${condition} ORDER BY c.updated_at DESC, c.id DESC LIMIT ${add(limit)} OFFSET ${add(offset)}) c
         ${STATS_JOIN}
        ORDER BY c.updated_at DESC, c.id DESC`,
      params,
    );
    const counted = await one<{ total: number | string }>(this.db, `SELECT count(*) AS total FROM conversations c WHERE ${condition}`, countParams);
    return { items: page.map(toRow), total: Number(counted?.total ?? 0) };
  }

  async conversation(applicationId: string, conversationId: string): Promise<LogRow | null> {
    const row = await one<LogRowRecord>(
      this.db,
      `SELECT ${ROW_COLUMNS} FROM (SELECT * FROM conversations WHERE id = $1 AND application_id = $2) c ${STATS_JOIN}`,
      [conversationId, applicationId],
    );
    return row && toRow(row);
  }

  async messages(conversationId: string): Promise<LogMessage[]> {
    const found = await rows<MessageRecord>(
      this.db,
      `SELECT m.id, m.conversation_id, m.role, m.content, m.status, m.provider, m.model, m.prompt_tokens, m.completion_tokens, m.total_tokens,
              m.latency_ms, m.error, m.config_version_id, m.sources, m.rating, m.tool_calls, m.tool_call_id, m.tool_name, m.is_error,
              m.metadata ->> 'annotationId' AS answered_by, a.id AS annotation_id, m.created_at
         FROM messages m LEFT JOIN annotations a ON a.message_id = m.id
        WHERE m.conversation_id = $1 ORDER BY m.seq`,
      [conversationId],
    );
    return found.map(toMessage);
  }
}
