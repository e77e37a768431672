import type { NewNotification, Notification, NotificationCategory } from '../domain/notification';

export interface NotificationFilter {
  category?: NotificationCategory;
  unread?: boolean;
}

/** A user's in-app notifications. */
export interface NotificationRepository {
  /** Stores it; a second one with the same user and `sourceKey` is not stored (answers null). */
  add(notification: NewNotification, at: Date): Promise<Notification | null>;
  list(userId: string, filter: NotificationFilter, offset: number, limit: number): Promise<{ items: Notification[]; total: number }>;
  /** Marks one of the user's notifications read; null when the user has no such notification. */
  markRead(userId: string, id: string, at: Date): Promise<Notification | null>;
  markAllRead(userId: string, at: Date): Promise<number>;
  /** Answered from the partial index of unread notifications (polled every 30 s by every dashboard). */
  unreadCount(userId: string): Promise<number>;
  /** Deletes notifications read before `before`. */
  pruneRead(before: Date): Promise<number>;
}
