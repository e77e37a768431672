import type { NotificationRepository } from '../../../core/notifications/ports/notification-repository.port';
import type { Notify } from '../../../core/notifications/use-cases/notify';
import { token } from '../../shared/tokens';

export const NOTIFICATION_TOKENS = {
  Repository: token<NotificationRepository>('NotificationRepository'),
  /** Creates notifications for other areas (webhooks disabled, new login address). */
  Notify: token<Notify>('Notify'),
} as const;
