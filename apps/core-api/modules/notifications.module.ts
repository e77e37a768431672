import type { Container } from 'inversify';
import { notificationsRouter } from '../../../adapters/http/notifications/notifications.router';
import { TypeOrmNotificationRepository } from '../../../adapters/persistence/notifications/type-orm-notification.repository';
import { CountUnreadNotificationsUseCase } from '../../../core/notifications/use-cases/count-unread-notifications.use-case';
import { ListNotificationsUseCase } from '../../../core/notifications/use-cases/list-notifications.use-case';
import { NotificationsFromEvents } from '../../../core/notifications/use-cases/notifications-from-events.subscriber';
import { Notify } from '../../../core/notifications/use-cases/notify';
import { PruneNotificationsUseCase } from '../../../core/notifications/use-cases/prune-notifications.use-case';
import { ReadAllNotificationsUseCase } from '../../../core/notifications/use-cases/read-all-notifications.use-case';
import { ReadNotificationUseCase } from '../../../core/notifications/use-cases/read-notification.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { EVENT_TOKENS } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { NOTIFICATION_TOKENS } from './notifications.tokens';

/** How often read notifications past 90 days are pruned. */
const PRUNE_INTERVAL_MS = 6 * 3_600_000;

/** In-app notifications (SPEC 2.11, 6.5; EVENTS.md), created from domain events and by other areas. */
export const notificationsModule: AppModule = {
  name: 'notifications',
  bind(c: Container) {
    provide(c, NOTIFICATION_TOKENS.Repository, (get) => new TypeOrmNotificationRepository(get(TOKENS.DataSource)));
    const deps = (get: Getter) => ({ notifications: get(NOTIFICATION_TOKENS.Repository), clock: get(TOKENS.Clock) });
    provide(c, NOTIFICATION_TOKENS.Notify, (get) => new Notify(deps(get)));
    provide(c, ListNotificationsUseCase, (get) => new ListNotificationsUseCase(deps(get)));
    provide(c, ReadNotificationUseCase, (get) => new ReadNotificationUseCase(deps(get)));
    provide(c, ReadAllNotificationsUseCase, (get) => new ReadAllNotificationsUseCase(deps(get)));
    provide(c, CountUnreadNotificationsUseCase, (get) => new CountUnreadNotificationsUseCase(deps(get)));
    provide(c, PruneNotificationsUseCase, (get) => new PruneNotificationsUseCase(deps(get)));
    provide(c, NotificationsFromEvents, (get) => new NotificationsFromEvents(get(NOTIFICATION_TOKENS.Notify)));
    c.bind(EVENT_TOKENS.Subscriber).toDynamicValue(() => resolve(c, NotificationsFromEvents)).inSingletonScope();
  },
  routers: (c) => [
    notificationsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      list: resolve(c, ListNotificationsUseCase),
      read: resolve(c, ReadNotificationUseCase),
      readAll: resolve(c, ReadAllNotificationsUseCase),
      unread: resolve(c, CountUnreadNotificationsUseCase),
    }),
  ],
  async start(c: Container) {
    const prune = resolve(c, PruneNotificationsUseCase);
    const logger = resolve(c, TOKENS.Logger);
    const run = () => void prune.execute().catch((err: Error) => logger.warn({ err: { message: err.message } }, 'pruning notifications failed'));
    run();
    const timer = setInterval(run, PRUNE_INTERVAL_MS);
    timer.unref();
    return async () => clearInterval(timer);
  },
};
