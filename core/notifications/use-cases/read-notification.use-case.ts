import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { toNotificationView, type NotificationView } from '../domain/notification';
import type { NotificationRepository } from '../ports/notification-repository.port';

/** Marks one of the caller's notifications read (another user's is a 404). */
export class ReadNotificationUseCase {
  constructor(private readonly deps: { notifications: NotificationRepository; clock: Clock }) {}

  async execute(id: string, actor: Actor): Promise<NotificationView> {
    const read = isUuid(id) ? await this.deps.notifications.markRead(actor.userId, id, this.deps.clock.now()) : null;
    if (!read) throw new NotFoundError('Notification');
    return toNotificationView(read);
  }
}
