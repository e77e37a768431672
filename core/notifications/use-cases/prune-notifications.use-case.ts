import type { Clock } from '../../shared/clock.port';
import { PRUNE_READ_AFTER_MS } from '../domain/notification';
import type { NotificationRepository } from '../ports/notification-repository.port';

/** Deletes notifications read more than 90 days ago. */
export class PruneNotificationsUseCase {
  constructor(private readonly deps: { notifications: NotificationRepository; clock: Clock }) {}

  execute(): Promise<number> {
    return this.deps.notifications.pruneRead(new Date(this.deps.clock.now().getTime() - PRUNE_READ_AFTER_MS));
  }
}
