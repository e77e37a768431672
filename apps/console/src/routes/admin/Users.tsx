import { useId, useState } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDate } from '../../lib/format';
import { useSession } from '../../lib/use-session';
import { PAGE_SIZE, useAdminUsers, useChangeUser, type AdminUser, type PlanId, type Role, type UserFilters } from './queries';
import { s } from './strings';

function Select<V extends string>({ label, value, options, onChange, any }: { label: string; value: V | ''; options: Record<string, string>; onChange: (v: V | '') => void; any?: boolean }) {
  const id = useId();
  return (
    <div className="ap-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="ap-select" value={value} onChange={(e) => onChange(e.target.value as V | '')}>
        {any ? <option value="">{s.any}</option> : null}
        {Object.entries(options).map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function UserRow({ user, me, onChanged }: { user: AdminUser; me: string | undefined; onChanged: (text: string) => void }) {
  const change = useChangeUser();
  const [confirm, setConfirm] = useState(false);
  const email = user.email ?? '';
  const self = user.id === me;
  const done = () => onChanged(s.changed(email));
  const roleNote = self && user.role === 'admin' ? s.selfRole : user.role !== user.storedRole ? s.viaAdminEmails : null;
  const noteId = `adm-note-${user.id}`;
  return (
    <tr className={user.disabled ? 'adm-row--disabled' : undefined}>
      <th scope="row">
        {email}
        {self ? <span className="ap-muted"> ({s.yourself})</span> : null}
      </th>
      <td>{user.displayName}</td>
      <td>
        <select
          className="ap-select"
          aria-label={s.roleOf(email)}
          aria-describedby={roleNote ? noteId : undefined}
          value={user.storedRole}
          disabled={(self && user.role === 'admin') || change.isPending}
          onChange={(e) => change.mutate({ id: user.id!, role: e.target.value as Role }, { onSuccess: done })}
        >
          {Object.entries(s.roles).map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
        {roleNote ? (
          <p id={noteId} className="ap-field__hint">
            {roleNote}
          </p>
        ) : null}
      </td>
      <td>
        <select className="ap-select" aria-label={s.planOf(email)} value={user.plan} disabled={change.isPending} onChange={(e) => change.mutate({ id: user.id!, plan: e.target.value as PlanId }, { onSuccess: done })}>
          {Object.entries(s.plans).map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      </td>
      <td>{user.disabled ? s.states.true : s.states.false}</td>
      <td>{user.createdAt ? formatDate(user.createdAt) : ''}</td>
      <td>
        {user.disabled ? (
          <Button aria-label={s.enableLabel(email)} busy={change.isPending} onClick={() => change.mutate({ id: user.id!, disabled: false }, { onSuccess: done })}>
            {s.enable}
          </Button>
        ) : (
          <Button variant="danger" aria-label={s.disableLabel(email)} disabled={self} title={self ? s.selfDisable : undefined} onClick={() => setConfirm(true)}>
            {s.disable}
          </Button>
        )}
        {!confirm ? <ErrorText error={change.error} /> : null}
        <ConfirmDialog
          open={confirm}
          onOpenChange={setConfirm}
          title={s.disableTitle(email)}
          description={s.disableBody}
          confirmLabel={s.disable}
          busy={change.isPending}
          error={change.error}
          onConfirm={() =>
            change.mutate(
              { id: user.id!, disabled: true },
              {
                onSuccess: () => {
                  setConfirm(false);
                  done();
                },
              },
            )
          }
        />
      </td>
    </tr>
  );
}

/** Every account: search and filters, role, plan, disable and enable; the API's 403 for non-admins. */
export default function Users() {
  const state = useSession();
  const me = state.status === 'signed-in' ? state.user.id : undefined;
  const [draft, setDraft] = useState<UserFilters>({ search: '', role: '', plan: '', disabled: '' });
  const [filters, setFilters] = useState<UserFilters>(draft);
  const [page, setPage] = useState(1);
  const [announce, setAnnounce] = useState('');
  const users = useAdminUsers(filters, page);
  const searchId = useId();
  const apply = (next: UserFilters) => {
    setDraft(next);
    setFilters(next);
    setPage(1);
  };

  let body;
  if (users.isPending) body = <Loading />;
  else if (users.isError) body = <ErrorState error={users.error} onRetry={() => void users.refetch()} />;
  else if (!users.data.items.length) body = <EmptyState title={s.empty}>{s.emptyBody}</EmptyState>;
  else {
    const { items, total } = users.data;
    const from = (page - 1) * PAGE_SIZE + 1;
    body = (
      <>
        <div className="ap-table-wrap">
          <table className="ap-table" aria-label={s.users}>
            <thead>
              <tr>
                <th scope="col">{s.columns.email}</th>
                <th scope="col">{s.columns.name}</th>
                <th scope="col">{s.columns.role}</th>
                <th scope="col">{s.columns.plan}</th>
                <th scope="col">{s.columns.state}</th>
                <th scope="col">{s.columns.created}</th>
                <th scope="col">{s.columns.actions}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((u) => (
                <UserRow key={u.id} user={u} me={me} onChanged={setAnnounce} />
              ))}
            </tbody>
          </table>
        </div>
        <div className="ap-actions">
          <span className="ap-muted">{s.total(from, from + items.length - 1, total)}</span>
          <Button disabled={page === 1} onClick={() => setPage(page - 1)}>
            {s.previous}
          </Button>
          <Button disabled={page * PAGE_SIZE >= total} onClick={() => setPage(page + 1)}>
            {s.next}
          </Button>
        </div>
      </>
    );
  }

  return (
    <div className="ap-stack">
      <p className="ap-muted">{s.usersDescription}</p>
      <form
        className="adm-filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
      >
        <div className="ap-field">
          <label htmlFor={searchId}>{s.search}</label>
          <input id={searchId} type="search" maxLength={200} value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
        </div>
        <Select label={s.role} any value={draft.role} options={s.roles} onChange={(role) => apply({ ...draft, role })} />
        <Select label={s.plan} any value={draft.plan} options={s.plans} onChange={(plan) => apply({ ...draft, plan })} />
        <Select label={s.state} any value={draft.disabled} options={s.states} onChange={(disabled) => apply({ ...draft, disabled })} />
        <Button type="submit" variant="primary">
          {s.apply}
        </Button>
      </form>
      <p className="ap-visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      {body}
    </div>
  );
}
