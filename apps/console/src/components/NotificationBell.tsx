import { useQuery } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { NavLink } from 'react-router';
import { api, data } from '../api/client';

/** The unread count's query key; the notifications area invalidates `['notifications']`, which includes it. */
export const UNREAD_COUNT_KEY = ['notifications', 'unread-count'] as const;

/** Polled every 30 s (SPEC 8); TanStack Query pauses the interval while the tab is hidden. */
export const UNREAD_POLL_MS = 30_000;

/** The shell's bell: a link to the notifications with the unread count. */
export function NotificationBell() {
  const unread = useQuery({
    queryKey: UNREAD_COUNT_KEY,
    queryFn: () => data(api.GET('/api/notifications/unread-count')),
    refetchInterval: UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
  // Until the first count arrives (or when it cannot be read) the bell claims no number: "none unread" would be a guess.
  const count = unread.data?.count;
  const label = count === undefined ? 'Notifications' : count === 0 ? 'Notifications, none unread' : `Notifications, ${count} unread`;
  return (
    <NavLink to="/notifications" className="ap-bell" aria-label={label} title={label}>
      <Bell aria-hidden size={18} />
      {count !== undefined && count > 0 ? (
        <span className="ap-bell__count" aria-hidden>
          {count > 99 ? '99+' : String(count)}
        </span>
      ) : null}
    </NavLink>
  );
}
