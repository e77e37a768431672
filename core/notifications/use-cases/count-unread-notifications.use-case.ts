import type { Actor } from '../../shared/actor';
import type { NotificationRepository } from '../ports/notification-repository.port';

/** How many of the caller's notifications are unread; cheap, as every open dashboard polls it. */
export class CountUnreadNotificationsUseCase {
  constructor(private readonly deps: { notifications: NotificationRepository }) {}

  async execute(actor: Actor): Promise<{ count: number }> {
    return { count: await this.deps.notifications.unreadCount(actor.userId) };
  }
}
