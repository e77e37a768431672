import type { DataSource } from 'typeorm';
import type { Conversation, Message, MessageSource } from '../../../core/conversations/domain/conversation';
import type { BegunTurn, ConversationRepository, NewConversation, NewMessage, Turn } from '../../../core/conversations/ports/conversation-repository.port';
import { NotFoundError } from '../../../core/shared/errors';
import { one, rows } from '../sql';

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

interface MessageRow {
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
  createdAt: new Date(r.created_at),
});

const MESSAGE_COLUMNS = `id, conversation_id, role, content, status, provider, model, prompt_tokens, completion_tokens,
  total_tokens, latency_ms, error, config_version_id, sources, rating, created_at`;

export class TypeOrmConversationRepository implements ConversationRepository {
  constructor(private readonly db: DataSource) {}

  async create(c: NewConversation): Promise<Conversation> {
    const row = await one<ConversationRow>(
      this.db,
      `INSERT INTO conversations (application_id, title, source, api_key_id, config_version_id)
       SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM applications WHERE id = $1) RETURNING *`,
      [c.applicationId, c.title, c.source, c.apiKeyId ?? null, c.configVersionId ?? null],
    );
    if (!row) throw new NotFoundError('Application');
    return toConversation(row);
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

  findForTurn(id: string): Promise<{ conversation: Conversation; ownerId: string } | null> {
    return this.findWithOwner(id);
  }

  async listByApplication(applicationId: string, offset: number, limit: number) {
    const [items, count] = await Promise.all([
      rows<ConversationRow>(this.db, `SELECT * FROM conversations WHERE application_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [applicationId, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM conversations WHERE application_id = $1`, [applicationId]),
    ]);
    return { items: items.map(toConversation), total: count?.n ?? 0 };
  }

  async listByOwner(ownerId: string, filter: { applicationId?: string }, offset: number, limit: number) {
    const where = `a.owner_id = $1${filter.applicationId ? ' AND c.application_id = $4' : ''}`;
    const params = filter.applicationId ? [ownerId, limit, offset, filter.applicationId] : [ownerId, limit, offset];
    const [items, count] = await Promise.all([
      rows<ConversationRow>(this.db, `SELECT c.* FROM conversations c JOIN applications a ON a.id = c.application_id WHERE ${where} ORDER BY c.created_at DESC, c.id LIMIT $2 OFFSET $3`, params),
      one<{ n: number }>(
        this.db,
        `SELECT count(*)::int AS n FROM conversations c JOIN applications a ON a.id = c.application_id WHERE ${where.replace('$4', '$2')}`,
        filter.applicationId ? [ownerId, filter.applicationId] : [ownerId],
      ),
    ]);
    return { items: items.map(toConversation), total: count?.n ?? 0 };
  }

  async archive(id: string): Promise<void> {
    await this.db.query(`UPDATE conversations SET status = 'archived', updated_at = now() WHERE id = $1`, [id]);
  }

  async addMessage(m: NewMessage): Promise<Message> {
    const row = await one<MessageRow>(
      this.db,
      `WITH touched AS (UPDATE conversations SET updated_at = now() WHERE id = $1)
       INSERT INTO messages (conversation_id, role, content, status, provider, model, prompt_tokens, completion_tokens,
         total_tokens, latency_ms, error, config_version_id, sources)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb) RETURNING ${MESSAGE_COLUMNS}`,
      [
        m.conversationId, m.role, m.content, m.status, m.provider ?? null, m.model ?? null,
        m.usage?.promptTokens ?? null, m.usage?.completionTokens ?? null, m.usage?.totalTokens ?? null,
        m.latencyMs ?? null, m.error ?? null, m.configVersionId ?? null, m.sources ? JSON.stringify(m.sources) : null,
      ],
    );
    return toMessage(row!);
  }

  async beginTurn(conversationId: string, content: string, limit: number, maxChars: number): Promise<BegunTurn | null> {
    // One round trip for the three things every turn starts with. The history is read from the
    // statement's snapshot, so it never includes the message the same statement stores.
    const row = await one<ConversationRow & { history: Turn[] | string }>(
      this.db,
      `WITH conv AS (SELECT * FROM conversations WHERE id = $1),
            open AS (SELECT id FROM conv WHERE status <> 'archived'),
            touched AS (UPDATE conversations SET updated_at = now() WHERE id IN (SELECT id FROM open)),
            stored AS (INSERT INTO messages (conversation_id, role, content, status) SELECT id, 'user', $4, 'complete' FROM open RETURNING id),
            recent AS (
              SELECT seq, role, content, sum(length(content)) OVER (ORDER BY seq DESC) AS running
                FROM messages
               WHERE conversation_id IN (SELECT id FROM open) AND status <> 'failed' AND content <> ''
               ORDER BY seq DESC LIMIT $2)
       SELECT conv.*,
              (SELECT coalesce(json_agg(json_build_object('role', role, 'content', content) ORDER BY seq), '[]'::json)
                 FROM recent WHERE running - length(content) < $3) AS history,
              (SELECT count(*) FROM stored) AS stored
         FROM conv`,
      [conversationId, limit, maxChars, content],
    );
    if (!row) return null;
    const history = typeof row.history === 'string' ? (JSON.parse(row.history) as Turn[]) : row.history;
    return { conversation: toConversation(row), history: row.status === 'archived' ? [] : history };
  }

  async messages(conversationId: string): Promise<Message[]> {
    const found = await rows<MessageRow>(this.db, `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = $1 ORDER BY seq`, [conversationId]);
    return found.map(toMessage);
  }
}
