import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import type { NotificationRepository } from '../ports/notification-repository.port';

/** Marks every unread notification of the caller read. */
export class ReadAllNotificationsUseCase {
  constructor(private readonly deps: { notifications: NotificationRepository; clock: Clock }) {}

  async execute(actor: Actor): Promise<{ updated: number }> {
    return { updated: await this.deps.notifications.markAllRead(actor.userId, this.deps.clock.now()) };
  }
}
