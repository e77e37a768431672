import { LogOut } from 'lucide-react';
import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { session } from '../api/client';
import { Button } from '../components/Button';
import { NotificationBell } from '../components/NotificationBell';
import { ScopeSwitcher } from '../components/ScopeSwitcher';
import { Loading } from '../components/States';
import { useScope } from '../lib/scope';
import { t } from '../lib/strings';
import { useSession } from '../lib/use-session';
import { usePayments } from '../lib/payments';
import { AREAS } from './areas';
import { NAV, shownIn } from './nav';

const navItems = AREAS.flatMap((a) => (NAV[a.id] ? [{ id: a.id, ...NAV[a.id]! }] : [])).sort((a, b) => a.order - b.order);

/** The signed-in frame: navigation, the user and sign-out, and the area's screen. */
export function Shell() {
  const state = useSession();
  const admin = state.status === 'signed-in' && state.user.role === 'admin';
  const payments = usePayments() === true;
  // The area remounts when the personal/team context changes, so its queries take the new scope's keys.
  const scopeKey = useScope();
  return (
    <div className="ap-shell">
      <a className="ap-skip" href="#main">
        {t.skipToContent}
      </a>
      <aside className="ap-sidebar">
        <div className="ap-sidebar__header">
          <div className="ap-brand">{t.product}</div>
          <NotificationBell />
        </div>
        <ScopeSwitcher />
        <nav aria-label={t.mainNav}>
          <ul>
            {navItems.filter((item) => shownIn(item, { admin, payments })).map(({ id, label, icon: Icon }) => (
              <li key={id}>
                <NavLink to={`/${id}`} className="ap-nav-link">
                  <Icon aria-hidden size={18} />
                  <span>{label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ap-sidebar__footer">
          {state.status === 'signed-in' ? <span className="ap-muted ap-user">{state.user.email}</span> : null}
          <Button variant="ghost" onClick={() => void session.signOut()}>
            <LogOut aria-hidden size={16} />
            {t.signOut}
          </Button>
        </div>
      </aside>
      <main id="main" className="ap-main" tabIndex={-1}>
        <Suspense key={scopeKey} fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
