export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_CATEGORIES = ['billing', 'team', 'knowledge', 'webhook', 'plugin', 'security'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export interface Notification {
  id: string;
  userId: string;
  type: NotificationType;
  category: NotificationCategory;
  title: string;
  body: string;
  actionUrl: string | null;
  readAt: Date | null;
  createdAt: Date;
}

export interface NewNotification {
  userId: string;
  type: NotificationType;
  category: NotificationCategory;
  title: string;
  body?: string;
  actionUrl?: string | null;
  /** The cause (an event id, a webhook and its disabling): one notification per user and cause. */
  sourceKey?: string;
}

export interface NotificationView {
  id: string;
  type: NotificationType;
  category: NotificationCategory;
  title: string;
  body: string;
  actionUrl: string | null;
  read: boolean;
  readAt: string | null;
  createdAt: string;
}

export const toNotificationView = (n: Notification): NotificationView => ({
  id: n.id,
  type: n.type,
  category: n.category,
  title: n.title,
  body: n.body,
  actionUrl: n.actionUrl,
  read: n.readAt !== null,
  readAt: n.readAt?.toISOString() ?? null,
  createdAt: n.createdAt.toISOString(),
});

/** Read notifications older than this are pruned (EVENTS.md). */
export const PRUNE_READ_AFTER_MS = 90 * 24 * 3_600_000;
