import type { DataSource } from 'typeorm';
import type { NewNotification, Notification } from '../../../core/notifications/domain/notification';
import type { NotificationFilter, NotificationRepository } from '../../../core/notifications/ports/notification-repository.port';
import { affected, one, rows } from '../sql';

interface Row {
  id: string;
  user_id: string;
  type: Notification['type'];
  category: Notification['category'];
  title: string;
  body: string;
  action_url: string | null;
  read_at: Date | string | null;
  created_at: Date | string;
}

const COLUMNS = 'id, user_id, type, category, title, body, action_url, read_at, created_at';

const toNotification = (r: Row): Notification => ({
  id: r.id,
  userId: r.user_id,
  type: r.type,
  category: r.category,
  title: r.title,
  body: r.body,
  actionUrl: r.action_url,
  readAt: r.read_at === null ? null : new Date(r.read_at),
  createdAt: new Date(r.created_at),
});

/** Notifications in PostgreSQL / PGlite. */
export class TypeOrmNotificationRepository implements NotificationRepository {
  constructor(private readonly db: DataSource) {}

  async add(n: NewNotification, at: Date): Promise<Notification | null> {
    const row = await one<Row>(
      this.db,
      `INSERT INTO notifications (user_id, type, category, title, body, action_url, source_key, created_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE EXISTS (SELECT 1 FROM users WHERE id = $1)
       ON CONFLICT (user_id, source_key) WHERE source_key IS NOT NULL DO NOTHING RETURNING ${COLUMNS}`,
      [n.userId, n.type, n.category, n.title.slice(0, 200), (n.body ?? '').slice(0, 2000), n.actionUrl ?? null, n.sourceKey ?? null, at],
    );
    return row && toNotification(row);
  }

  async list(userId: string, filter: NotificationFilter, offset: number, limit: number) {
    const where = `user_id = $1 AND ($2::text IS NULL OR category = $2) AND ($3::boolean IS NULL OR (read_at IS NULL) = $3)`;
    const params = [userId, filter.category ?? null, filter.unread ?? null];
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `SELECT ${COLUMNS} FROM notifications WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT $4 OFFSET $5`, [...params, limit, offset]),
      one<{ n: string }>(this.db, `SELECT count(*) AS n FROM notifications WHERE ${where}`, params),
    ]);
    return { items: items.map(toNotification), total: Number(count?.n ?? 0) };
  }

  async markRead(userId: string, id: string, at: Date): Promise<Notification | null> {
    const row = await one<Row>(
      this.db,
      `UPDATE notifications SET read_at = COALESCE(read_at, $3) WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
      [id, userId, at],
    );
    return row && toNotification(row);
  }

  markAllRead(userId: string, at: Date): Promise<number> {
    return affected(this.db, `UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL`, [userId, at]);
  }

  async unreadCount(userId: string): Promise<number> {
    const row = await one<{ n: string }>(this.db, `SELECT count(*) AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL`, [userId]);
    return Number(row?.n ?? 0);
  }

  pruneRead(before: Date): Promise<number> {
    return affected(this.db, `DELETE FROM notifications WHERE read_at IS NOT NULL AND read_at < $1`, [before]);
  }
}
