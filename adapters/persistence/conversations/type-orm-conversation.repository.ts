import type { AnswerMetadata } from '../../../core/ai/domain/resilience';
import { visibleApplicationIds } from '../teams/visibility';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Conversation, Message, MessageSource, MessageToolCall } from '../../../core/conversations/domain/conversation';
import type { BegunTurn, ConversationRepository, NewConversation, NewMessage, Turn, TurnAnnouncement, UntitledRename } from '../../../core/conversations/ports/conversation-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';
import { CoalescingLanes } from '../coalescing-lanes';
import { one, rows } from '../sql';
import { HistoryCache, recentTurns, type CachedHistory } from './history-cache';

interface ConversationRow {
  id: string;
  application_id: string;
  title: string;
  status: Conversation['status'];
  source: Conversation['source'];
  api_key_id: string | null;
  config_version_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A `messages` row as the repositories read it (the application's logs read the same columns). */
export interface MessageRow {
  id: string;
  conversation_id: string;
  role: Message['role'];
  content: string;
  status: Message['status'];
  provider: string | null;
  model: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  latency_ms: number | null;
  error: string | null;
  config_version_id: string | null;
  sources: MessageSource[] | null;
  rating: number | null;
  tool_calls: MessageToolCall[] | null;
  tool_call_id: string | null;
  tool_name: string | null;
  is_error: boolean | null;
  metadata: AnswerMetadata | null;
  created_at: Date;
}

const toConversation = (r: ConversationRow): Conversation => ({
  id: r.id,
  applicationId: r.application_id,
  title: r.title,
  status: r.status,
  source: r.source,
  apiKeyId: r.api_key_id,
  configVersionId: r.config_version_id,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const toMessage = (r: MessageRow): Message => ({
  id: r.id,
  conversationId: r.conversation_id,
  role: r.role,
  content: r.content,
  status: r.status,
  provider: r.provider,
  model: r.model,
  usage:
    r.total_tokens === null
      ? null
      : { promptTokens: r.prompt_tokens ?? 0, completionTokens: r.completion_tokens ?? 0, totalTokens: r.total_tokens },
  latencyMs: r.latency_ms,
  error: r.error,
  configVersionId: r.config_version_id,
  sources: r.sources,
  rating: r.rating,
  ...(r.tool_calls ? { toolCalls: r.tool_calls } : {}),
  ...(r.role === 'tool' ? { toolCallId: r.tool_call_id, toolName: r.tool_name, isError: r.is_error === true } : {}),
  ...(r.metadata ? { metadata: r.metadata } : {}),
  createdAt: new Date(r.created_at),
});

/** A history entry as stored: `[role, content]`, or with tools `[role, content, toolCalls, toolCallId, toolName, isError]`. */
type HistoryEntry = [Turn['role'], string] | [Turn['role'], string, MessageToolCall[] | null, string | null, string | null, boolean | null];

/** The calls as a provider takes them back: arguments as JSON text. */
const callsOf = (calls: MessageToolCall[]): NonNullable<Turn['toolCalls']> =>
  calls.map((c) => ({ id: c.id, name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}) }));

/** A message as a history turn (with its calls, or as a tool result). */
function toTurn(role: Turn['role'], content: string, toolCalls?: MessageToolCall[] | null, toolCallId?: string | null, toolName?: string | null, isError?: boolean | null): Turn {
  if (role === 'tool') return { role, content, toolCallId: toolCallId ?? '', name: toolName ?? '', isError: isError === true };
  return toolCalls?.length ? { role, content, toolCalls: callsOf(toolCalls) } : { role, content };
}

const fromHistoryEntry = (e: HistoryEntry): Turn => toTurn(e[0], e[1], e[2], e[3], e[4], e[5]);

/**
 * The history a turn starts from, as a JSON array of [role, content] pairs, oldest first: the latest
 * `limit` messages with text (failed answers left out). The conversation is compared by equality alone,
 * so the newest messages are read backwards off the index and the scan stops at the limit, however long
 * the conversation. The character budget is applied by the caller (`recentTurns`), so that what is read
 * can be kept in the history cache whatever budget the next turn brings.
 */
const history = (conversation: string, limit: string) => `
  SELECT coalesce(json_agg(CASE WHEN tool_calls IS NULL AND role <> 'tool' THEN json_build_array(role, content)
                                ELSE json_build_array(role, content, tool_calls, tool_call_id, tool_name, is_error) END ORDER BY seq), '[]'::json)
    FROM (SELECT seq, role, content, tool_calls, tool_call_id, tool_name, is_error
            FROM messages
           WHERE conversation_id = ${conversation} AND status <> 'failed' AND (content <> '' OR tool_calls IS NOT NULL OR role = 'tool')
           ORDER BY seq DESC LIMIT ${limit}) recent`;

/** A conversation's creation time in whole milliseconds, as JavaScript dates hold it (the history cache's check). */
const CREATED_MS = (alias: string) => `floor(extract(epoch FROM ${alias}.created_at) * 1000)::float8`;

/** A new event id as `newEventId` makes them (`evt_` + 32 hex digits), for events written by these statements. */
const NEW_EVENT_ID = `'evt_' || replace(gen_random_uuid()::text, '-', '')`;

const MESSAGE_COLUMNS = `id, conversation_id, role, content, status, provider, model, prompt_tokens, completion_tokens,
  total_tokens, latency_ms, error, config_version_id, sources, rating, tool_calls, tool_call_id, tool_name, is_error, metadata, created_at`;

export class TypeOrmConversationRepository implements ConversationRepository {
  private readonly histories: HistoryCache;

  /**
   * `historyCacheChars` bounds the history cache (characters of message text held, about two bytes each);
   * `onAnnounced` runs after a statement wrote a turn's events (it wakes the event dispatcher).
   */
  constructor(
    private readonly db: DataSource,
    historyCacheChars = 8_000_000,
    private readonly onAnnounced: () => void = () => undefined,
  ) {
    this.histories = new HistoryCache(historyCacheChars);
  }

  async create(c: NewConversation): Promise<Conversation> {
    return (await this.created(c, await this.creates.submit('', { conversation: c }))).conversation;
  }

  async beginFirstTurn(c: NewConversation, content: string, announce?: TurnAnnouncement): Promise<BegunTurn> {
    const { conversation, messageId } = await this.created(c, await this.creates.submit('', { conversation: c, firstMessage: content, announce }));
    return { conversation, history: [], ...(messageId ? { messageId } : {}) };
  }

  /** The conversation a creation stored, or why it stored none: its application is gone, or (ids chosen by the caller) the id is taken. */
  private async created<T>(c: NewConversation, stored: T | null): Promise<T> {
    if (stored) return stored;
    if (c.id !== undefined && (await this.findById(c.id))) throw new ConflictError('A conversation with this id already exists');
    throw new NotFoundError('Application');
  }

  /**
   * Conversations are created by group commit too (every public chat without a conversation starts
   * one), each with its first message when it has one. A batch statement stores all or nothing; an
   * unknown application or a taken id is that item's null.
   */
  private readonly creates = new CoalescingLanes<Creation, Created | null>((_, batch) => this.createAll(batch), { maxBatch: 64 });

  private async createAll(batch: Creation[]): Promise<Array<Created | null>> {
    const ids = batch.map((c) => c.conversation.id ?? randomUUID());
    const column = <T>(pick: (c: NewConversation) => T) => batch.map((c) => pick(c.conversation));
    // The first message goes in with its conversation; an id asked for twice in the batch is stored
    // once, for its first asker, so only that asker's message is stored with it (and its events written).
    const found = await rows<ConversationRow & { created_ms: number; message_id: string | null }>(
      this.db,
      `WITH req AS (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::uuid[], $7::text[], $8::uuid[], $9::text[])
                               WITH ORDINALITY AS r(id, application_id, title, source, api_key_id, config_version_id, first_message,
                                                    announce_owner, announce_source, ord)),
            asked AS (SELECT DISTINCT ON (id) id, first_message, announce_owner, announce_source FROM req ORDER BY id, ord),
            stored AS (
              INSERT INTO conversations (id, application_id, title, source, api_key_id, config_version_id, message_count)
              SELECT r.id, r.application_id, r.title, r.source, r.api_key_id, r.config_version_id, (r.first_message IS NOT NULL)::int
                FROM req r
               WHERE EXISTS (SELECT 1 FROM applications a WHERE a.id = r.application_id)
               ORDER BY r.ord
              ON CONFLICT (id) DO NOTHING
              RETURNING *, ${CREATED_MS('conversations')} AS created_ms),
            first AS (
              INSERT INTO messages (conversation_id, role, content, status)
              SELECT stored.id, 'user', asked.first_message, 'complete'
                FROM stored JOIN asked ON asked.id = stored.id
               WHERE asked.first_message IS NOT NULL
              RETURNING id AS message_id, conversation_id),
            announced AS (
              INSERT INTO event_outbox (event_id, type, owner_id, application_id, data)
              SELECT ${NEW_EVENT_ID}, e.type, asked.announce_owner, stored.application_id,
                     jsonb_build_object('applicationId', stored.application_id, 'conversationId', stored.id, 'source', asked.announce_source)
                       || CASE WHEN e.n = 2 THEN jsonb_build_object('messageId', first.message_id) ELSE '{}'::jsonb END
                FROM stored JOIN asked ON asked.id = stored.id LEFT JOIN first ON first.conversation_id = stored.id
                     CROSS JOIN (VALUES (1, 'conversation.started'), (2, 'message.received')) e(n, type)
               WHERE asked.announce_owner IS NOT NULL AND (e.n = 1 OR first.message_id IS NOT NULL)
               ORDER BY stored.id, e.n
              RETURNING 1)
       SELECT stored.*, first.message_id FROM stored LEFT JOIN first ON first.conversation_id = stored.id`,
      [
        ids, column((c) => c.applicationId), column((c) => c.title), column((c) => c.source),
        column((c) => c.apiKeyId ?? null), column((c) => c.configVersionId ?? null), batch.map((c) => c.firstMessage ?? null),
        batch.map((c) => c.announce?.ownerId ?? null), batch.map((c) => c.announce?.source ?? null),
      ],
    );
    if (batch.some((c) => c.announce) && found.length > 0) this.onAnnounced();
    const byId = new Map(found.map((r) => [r.id, r]));
    // The same id asked for twice in one batch was stored once: the first asker created it.
    const claimed = new Set<string>();
    return ids.map((id, i) => {
      const row = claimed.has(id) ? undefined : byId.get(id);
      claimed.add(id);
      if (!row) return null;
      // A new conversation's history is known (nothing, or its first message): its next turn need not look.
      const first = batch[i]!.firstMessage;
      const turns: Turn[] = first === undefined ? [] : [{ role: 'user', content: first }];
      this.histories.remember(id, { createdAtMs: Number(row.created_ms), count: turns.length }, turns, Number.POSITIVE_INFINITY);
      return { conversation: toConversation(row), messageId: row.message_id ?? null };
    });
  }

  async findById(id: string): Promise<Conversation | null> {
    const row = await one<ConversationRow>(this.db, `SELECT * FROM conversations WHERE id = $1`, [id]);
    return row && toConversation(row);
  }

  async findWithOwner(id: string): Promise<{ conversation: Conversation; ownerId: string } | null> {
    const row = await one<ConversationRow & { owner_id: string }>(
      this.db,
      `SELECT c.*, a.owner_id FROM conversations c JOIN applications a ON a.id = c.application_id WHERE c.id = $1`,
      [id],
    );
    return row && { conversation: toConversation(row), ownerId: row.owner_id };
  }

  /**
   * As `findWithOwner`, for a chat turn's admission: the lookups that arrive while one runs go together in the next
   * statement (`CoalescingLanes`), so a burst of turns on conversations not in the cache waits for a few statements,
   * not one round trip each in a row (issue 49). Alone, a lookup runs at once.
   */
  findForTurn(id: string): Promise<{ conversation: Conversation; ownerId: string } | null> {
    return this.turnLookups.submit('', id);
  }

  private readonly turnLookups = new CoalescingLanes<string, { conversation: Conversation; ownerId: string } | null>(async (_, ids) => {
    if (ids.length === 1) return [await this.findWithOwner(ids[0]!)];
    const found = await rows<ConversationRow & { owner_id: string }>(
      this.db,
      `SELECT c.*, a.owner_id FROM conversations c JOIN applications a ON a.id = c.application_id WHERE c.id = ANY($1::uuid[])`,
      [[...new Set(ids)]],
    );
    const byId = new Map(found.map((row) => [row.id, { conversation: toConversation(row), ownerId: row.owner_id }]));
    return ids.map((id) => byId.get(id) ?? null);
  }, { maxBatch: 200 });

  async listByApplication(applicationId: string, offset: number, limit: number) {
    const [items, count] = await Promise.all([
      rows<ConversationRow>(this.db, `SELECT * FROM conversations WHERE application_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [applicationId, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM conversations WHERE application_id = $1`, [applicationId]),
    ]);
    return { items: items.map(toConversation), total: count?.n ?? 0 };
  }

  async listByOwner(ownerId: string, filter: { applicationId?: string; teamId?: string | null }, offset: number, limit: number) {
    // $1 the user, $2 the application (or null), the team last when one is asked for: the caller's applications and their teams'.
    const where = (team: string) => `c.application_id IN (${visibleApplicationIds(filter.teamId, '$1', team)}) AND ($2::uuid IS NULL OR c.application_id = $2::uuid)`;
    const params = [ownerId, filter.applicationId ?? null];
    const team = filter.teamId ? [filter.teamId] : [];
    const [items, count] = await Promise.all([
      rows<ConversationRow>(this.db, `SELECT c.* FROM conversations c WHERE ${where('$5')} ORDER BY c.created_at DESC, c.id LIMIT $3 OFFSET $4`, [...params, limit, offset, ...team]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM conversations c WHERE ${where('$3')}`, [...params, ...team]),
    ]);
    return { items: items.map(toConversation), total: count?.n ?? 0 };
  }

  async archive(id: string): Promise<void> {
    await this.db.query(`UPDATE conversations SET status = 'archived', updated_at = now() WHERE id = $1`, [id]);
  }

  /**
   * Every chat turn writes twice (the user's message, then the answer), so these writes go by group
   * commit: while one statement runs, the turns that arrive meanwhile wait to go together in the next
   * (`CoalescingLanes`), one statement for many turns under load and no wait when alone. A statement
   * either applies whole or not at all, so a failed batch is retried one turn at a time and the failure
   * reaches only its own turn.
   */
  private readonly appends = new CoalescingLanes<NewMessage, Message>((_, batch) => this.appendAll(batch), { maxBatch: 64 });
  private readonly starts = new CoalescingLanes<TurnStart, BegunTurn | null>((_, batch) => this.startAll(batch), { maxBatch: 64 });

  addMessage(m: NewMessage): Promise<Message> {
    return this.appends.submit('', m);
  }

  beginTurn(conversationId: string, content: string, limit: number, maxChars: number, announce?: TurnAnnouncement, title?: UntitledRename): Promise<BegunTurn | null> {
    return this.starts.submit('', { conversationId, content, limit, maxChars, announce, title });
  }

  async rename(id: string, title: string): Promise<boolean> {
    const row = await one<{ id: string }>(this.db, `UPDATE conversations SET title = $2, updated_at = now() WHERE id = $1 RETURNING id`, [id, title]);
    return row !== null;
  }

  async messages(conversationId: string): Promise<Message[]> {
    const found = await rows<MessageRow>(this.db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = $1 ORDER BY seq`, [conversationId]);
    return found.map(toMessage);
  }

  private async appendAll(batch: NewMessage[]): Promise<Message[]> {
    // Ids are made here so the stored rows can be matched to the batch's order; the conversations are
    // locked in id order, so batches touching the same conversations never deadlock. Each
    // conversation's message count goes up by its messages in the batch (the history cache's version).
    // An answer that carries an announcement writes its `message.completed` here too, unless it failed.
    const ids = batch.map(() => randomUUID());
    const column = <T>(pick: (m: NewMessage) => T) => batch.map(pick);
    const found = await rows<MessageRow & { message_count: number; created_ms: number }>(
      this.db,
      `WITH req AS (
              SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
                                   $9::int[], $10::int[], $11::int[], $12::text[], $13::uuid[], $14::text[], $15::uuid[],
                                   $16::text[], $17::text[], $18::text[], $19::boolean[], $20::text[])
                       WITH ORDINALITY AS r(id, conversation_id, role, content, status, provider, model, prompt_tokens,
                                            completion_tokens, total_tokens, latency_ms, error, config_version_id, sources,
                                            announce_owner, tool_calls, tool_call_id, tool_name, is_error, metadata, ord)),
            added AS (SELECT conversation_id, count(*)::int AS n FROM req GROUP BY conversation_id),
            locked AS (SELECT id FROM conversations WHERE id IN (SELECT conversation_id FROM req) ORDER BY id FOR NO KEY UPDATE),
            touched AS (UPDATE conversations c SET updated_at = now(), message_count = c.message_count + added.n
                          FROM locked JOIN added ON added.conversation_id = locked.id
                         WHERE c.id = locked.id
                         RETURNING c.id, c.application_id, c.message_count, ${CREATED_MS('c')} AS created_ms),
            stored AS (
              INSERT INTO messages (id, conversation_id, role, content, status, provider, model, prompt_tokens, completion_tokens,
                total_tokens, latency_ms, error, config_version_id, sources, tool_calls, tool_call_id, tool_name, is_error, metadata)
              SELECT id, conversation_id, role, content, status, provider, model, prompt_tokens, completion_tokens,
                     total_tokens, latency_ms, error, config_version_id, sources::jsonb, tool_calls::jsonb, tool_call_id, tool_name, is_error, metadata::jsonb
                FROM req ORDER BY ord
              RETURNING ${MESSAGE_COLUMNS}),
            announced AS (
              INSERT INTO event_outbox (event_id, type, owner_id, application_id, data)
              SELECT ${NEW_EVENT_ID}, 'message.completed', req.announce_owner, touched.application_id,
                     jsonb_build_object('applicationId', touched.application_id, 'conversationId', s.conversation_id, 'messageId', s.id,
                       'provider', s.provider, 'model', s.model, 'latencyMs', s.latency_ms, 'interrupted', s.status = 'interrupted',
                       'usage', CASE WHEN s.total_tokens IS NULL THEN NULL ELSE jsonb_build_object('promptTokens', coalesce(s.prompt_tokens, 0),
                                  'completionTokens', coalesce(s.completion_tokens, 0), 'totalTokens', s.total_tokens) END)
                FROM stored s JOIN req ON req.id = s.id JOIN touched ON touched.id = s.conversation_id
               WHERE req.announce_owner IS NOT NULL AND s.status <> 'failed'
               ORDER BY req.ord
              RETURNING 1)
       SELECT stored.*, touched.message_count, touched.created_ms FROM stored JOIN touched ON touched.id = stored.conversation_id`,
      [
        ids, column((m) => m.conversationId), column((m) => m.role), column((m) => m.content), column((m) => m.status),
        column((m) => m.provider ?? null), column((m) => m.model ?? null), column((m) => m.usage?.promptTokens ?? null),
        column((m) => m.usage?.completionTokens ?? null), column((m) => m.usage?.totalTokens ?? null),
        column((m) => m.latencyMs ?? null), column((m) => m.error ?? null), column((m) => m.configVersionId ?? null),
        column((m) => (m.sources ? JSON.stringify(m.sources) : null)), column((m) => m.announce?.ownerId ?? null),
        column((m) => (m.toolCalls?.length ? JSON.stringify(m.toolCalls) : null)), column((m) => m.toolCallId ?? null),
        column((m) => m.toolName ?? null), column((m) => (m.role === 'tool' ? m.isError === true : null)),
        column((m) => (m.metadata ? JSON.stringify(m.metadata) : null)),
      ],
    );
    if (batch.some((m) => m.announce && m.status !== 'failed')) this.onAnnounced();
    const byId = new Map(found.map((r) => [r.id, r]));
    const written = ids.map((id) => byId.get(id)!);
    const byConversation = new Map<string, typeof written>();
    for (const row of written) {
      const stored = byConversation.get(row.conversation_id);
      if (stored) stored.push(row);
      else byConversation.set(row.conversation_id, [row]);
    }
    for (const [conversationId, stored] of byConversation) {
      const { message_count: countAfter, created_ms: createdAtMs } = stored[0]!;
      const turns = stored.filter((r) => r.status !== 'failed').map((r) => toTurn(r.role, r.content, r.tool_calls, r.tool_call_id, r.tool_name, r.is_error));
      this.histories.advance(conversationId, Number(createdAtMs), turns, stored.length, countAfter);
    }
    return written.map(toMessage);
  }

  private async startAll(batch: TurnStart[]): Promise<Array<BegunTurn | null>> {
    // One round trip for the three things every turn starts with: the conversation, the user's message
    // stored, the history before it (read from the statement's snapshot, so never the message it stores).
    // Two turns of one conversation cannot share a statement: the second one's history must hold the
    // first one's message. The first of each conversation goes now, the rest after it.
    // The history is read only when the cache holds no entry at the conversation's current version.
    const seen = new Set<string>();
    const now: number[] = [];
    const later: number[] = [];
    batch.forEach((t, i) => {
      (seen.has(t.conversationId) ? later : now).push(i);
      seen.add(t.conversationId);
    });
    const results: Array<BegunTurn | null> = new Array(batch.length).fill(null);
    const offered = now.map((i) => this.histories.offer(batch[i]!.conversationId, batch[i]!.limit));
    const found = await rows<ConversationRow & { ord: string; count_before: number; count_after: number | null; created_ms: number; message_id?: string | null; history: HistoryEntry[] | string | null }>(
      this.db,
      `WITH req AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::float8[], $6::uuid[], $7::text[], $8::text[], $9::text[])
                              WITH ORDINALITY AS r(conversation_id, content, max_count, known_count, known_created_ms,
                                                   announce_owner, announce_source, untitled, first_title, ord)),
            conv AS (SELECT c.*, req.ord, req.content AS new_content, req.max_count, req.announce_owner, req.announce_source,
                            req.untitled, req.first_title,
                            c.message_count = req.known_count AND ${CREATED_MS('c')} = req.known_created_ms AS known
                       FROM conversations c JOIN req ON req.conversation_id = c.id WHERE c.id = ANY($1::uuid[])),
            locked AS (SELECT id FROM conversations WHERE id IN (SELECT id FROM conv WHERE status <> 'archived') ORDER BY id FOR NO KEY UPDATE),
            touched AS (UPDATE conversations c SET updated_at = now(), message_count = c.message_count + 1,
                                   title = CASE WHEN c.message_count = 0 AND conv.first_title IS NOT NULL AND c.title = conv.untitled
                                                THEN conv.first_title ELSE c.title END
                          FROM locked JOIN conv ON conv.id = locked.id WHERE c.id = locked.id RETURNING c.id, c.message_count, c.title),
            stored AS (INSERT INTO messages (conversation_id, role, content, status)
                       SELECT id, 'user', new_content, 'complete' FROM conv WHERE status <> 'archived' ORDER BY ord
                       RETURNING id AS message_id, conversation_id),
            announced AS (
              INSERT INTO event_outbox (event_id, type, owner_id, application_id, data)
              SELECT ${NEW_EVENT_ID}, 'message.received', conv.announce_owner, conv.application_id,
                     jsonb_build_object('applicationId', conv.application_id, 'conversationId', conv.id,
                                        'messageId', stored.message_id, 'source', conv.announce_source)
                FROM stored JOIN conv ON conv.id = stored.conversation_id
               WHERE conv.announce_owner IS NOT NULL
               ORDER BY conv.ord
              RETURNING 1)
       SELECT conv.id, conv.application_id, coalesce(touched.title, conv.title) AS title, conv.status, conv.source, conv.api_key_id, conv.config_version_id,
              conv.created_at, conv.updated_at, conv.ord, conv.message_count AS count_before, touched.message_count AS count_after,
              ${CREATED_MS('conv')} AS created_ms, stored.message_id,
              CASE WHEN conv.status = 'archived' OR conv.known THEN NULL ELSE (${history('conv.id', 'conv.max_count')}) END AS history
         FROM conv LEFT JOIN touched ON touched.id = conv.id LEFT JOIN stored ON stored.conversation_id = conv.id`,
      [
        now.map((i) => batch[i]!.conversationId), now.map((i) => batch[i]!.content), now.map((i) => batch[i]!.limit),
        offered.map((v) => v?.count ?? -1), offered.map((v) => v?.createdAtMs ?? -1),
        now.map((i) => batch[i]!.announce?.ownerId ?? null), now.map((i) => batch[i]!.announce?.source ?? null),
        now.map((i) => batch[i]!.title?.untitled ?? null), now.map((i) => batch[i]!.title?.title ?? null),
      ],
    );
    if (now.some((i) => batch[i]!.announce) && found.some((r) => r.message_id)) this.onAnnounced();
    for (const row of found) {
      const k = Number(row.ord) - 1;
      results[now[k]!] = this.begin(row, batch[now[k]!]!, offered[k]);
    }
    if (later.length > 0) {
      const rest = await this.startAll(later.map((i) => batch[i]!));
      later.forEach((i, k) => (results[i] = rest[k]!));
    }
    return results;
  }

  /** A started turn from its row, with the history from the row or the cache, and the cache moved on. */
  private begin(
    row: ConversationRow & { count_before: number; count_after: number | null; created_ms: number; message_id?: string | null; history: HistoryEntry[] | string | null },
    turn: TurnStart,
    offered: CachedHistory | undefined,
  ): BegunTurn {
    const conversation = toConversation(row);
    if (row.status === 'archived') return { conversation, history: [] };
    const version = { createdAtMs: Number(row.created_ms), count: Number(row.count_before) };
    let turns: Turn[];
    if (row.history === null && offered) {
      turns = offered.turns; // the database found the conversation at the version offered
    } else {
      const entries = typeof row.history === 'string' ? (JSON.parse(row.history) as HistoryEntry[]) : (row.history ?? []);
      turns = entries.map(fromHistoryEntry);
      this.histories.remember(row.id, version, turns, turn.limit);
    }
    const stored: Turn = { role: 'user', content: turn.content };
    if (row.count_after !== null) this.histories.advance(row.id, version.createdAtMs, [stored], 1, Number(row.count_after));
    return { conversation, history: recentTurns(turns, turn.limit, turn.maxChars), ...(row.message_id ? { messageId: row.message_id } : {}) };
  }
}

/** A conversation stored by `createAll`, with the id of its first (user) message when it had one. */
interface Created {
  conversation: Conversation;
  messageId: string | null;
}

interface Creation {
  conversation: NewConversation;
  /** The user's message that opens it, stored with it (`beginFirstTurn`). */
  firstMessage?: string;
  announce?: TurnAnnouncement;
}

interface TurnStart {
  conversationId: string;
  content: string;
  limit: number;
  maxChars: number;
  announce?: TurnAnnouncement;
  title?: UntitledRename;
}

