import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { str, validate } from '../../shared/validation';
import { NOTIFICATION_CATEGORIES, toNotificationView, type NotificationCategory, type NotificationView } from '../domain/notification';
import type { NotificationRepository } from '../ports/notification-repository.port';

const filters = yup.object({
  category: str().oneOf([...NOTIFICATION_CATEGORIES], `category must be one of ${NOTIFICATION_CATEGORIES.join(', ')}`),
  unread: str().oneOf(['true', 'false'], 'unread must be true or false'),
});

/** The caller's notifications, newest first: `?category=&unread=true&page=&limit=`. */
export class ListNotificationsUseCase {
  constructor(private readonly deps: { notifications: NotificationRepository }) {}

  async execute(query: Record<string, unknown>, actor: Actor): Promise<Page<NotificationView>> {
    const page = parsePageRequest(query);
    const f = await validate(filters, { category: single(query.category), unread: single(query.unread) });
    const { items, total } = await this.deps.notifications.list(
      actor.userId,
      { category: f.category as NotificationCategory | undefined, unread: f.unread === undefined ? undefined : f.unread === 'true' },
      offsetOf(page),
      page.limit,
    );
    return { data: items.map(toNotificationView), total, page: page.page, limit: page.limit };
  }
}

/** A query parameter given twice is an array; only one value is meant. */
const single = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v === '' ? undefined : v);
