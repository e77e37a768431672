import { CheckCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { PAGE_SIZE, useMarkAllRead, useMarkRead, useNotifications, type Filter, type Notification } from './queries';
import { s } from './strings';

/** Only the platform's own paths become links: an absolute or scheme URL from the API stays text. */
const internalPath = (url?: string | null) => (url && url.startsWith('/') && !url.startsWith('//') ? url : null);

function NotificationItem({ item }: { item: Notification }) {
  const markRead = useMarkRead();
  const path = internalPath(item.actionUrl);
  const title = item.title ?? '';
  return (
    <li className={item.read ? 'ap-notification' : 'ap-notification ap-notification--unread'}>
      <div className="ap-notification__text">
        <p className="ap-notification__title">
          <span className="ap-visually-hidden">{item.read ? s.read : s.unread}: </span>
          <span className="ap-strong">{title}</span>
        </p>
        {item.body ? <p className="ap-notification__body">{item.body}</p> : null}
        <p className="ap-muted">
          {s.categories[item.category ?? ''] ?? item.category}
          {item.createdAt ? ` · ${formatDateTime(item.createdAt)}` : ''}
        </p>
        <ErrorText error={markRead.error} />
      </div>
      <div className="ap-actions">
        {path ? (
          <Link className="ap-button ap-button--ghost" to={path}>
            {s.open}
          </Link>
        ) : null}
        {!item.read && item.id ? (
          <Button aria-label={s.markReadLabel(title)} busy={markRead.isPending} onClick={() => markRead.mutate(item.id!)}>
            {s.markRead}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

export default function NotificationsList() {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<Filter>('all');
  const list = useNotifications(page, filter);
  const markAll = useMarkAllRead();
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;

  const filterControl = (
    <label className="ap-field ap-field--inline">
      <span>{s.filterLabel}</span>
      <select
        value={filter}
        onChange={(event) => {
          setFilter(event.target.value as Filter);
          setPage(1);
        }}
      >
        <option value="all">{s.filters.all}</option>
        <option value="unread">{s.filters.unread}</option>
      </select>
    </label>
  );

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (list.data.items.length === 0) body = <EmptyState title={filter === 'unread' ? s.emptyUnread : s.empty}>{s.emptyBody}</EmptyState>;
  else
    body = (
      <>
        <p className="ap-muted">{s.count(list.data.total)}</p>
        <ul className="ap-notifications" aria-label={s.title}>
          {list.data.items.map((item) => (
            <NotificationItem key={item.id} item={item} />
          ))}
        </ul>
        {pages > 1 ? (
          <div className="ap-actions">
            <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {s.previous}
            </Button>
            <span className="ap-muted">
              {page} / {pages}
            </span>
            <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {s.next}
            </Button>
          </div>
        ) : null}
      </>
    );

  return (
    <>
      <PageHeader
        title={s.title}
        description={s.description}
        actions={
          <>
            {filterControl}
            <Button busy={markAll.isPending} onClick={() => markAll.mutate()}>
              <CheckCheck aria-hidden size={16} />
              {s.markAllRead}
            </Button>
          </>
        }
      />
      <ErrorText error={markAll.error} />
      {markAll.isSuccess ? (
        <p className="ap-muted" role="status">
          {s.allRead(markAll.data?.updated ?? 0)}
        </p>
      ) : null}
      <div className="ap-stack">{body}</div>
    </>
  );
}
