import { LogOut } from 'lucide-react';
import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { session } from '../api/client';
import { Button } from '../components/Button';
import { NotificationBell } from '../components/NotificationBell';
import { Loading } from '../components/States';
import { t } from '../lib/strings';
import { useSession } from '../lib/use-session';
import { AREAS } from './areas';
import { NAV } from './nav';

const navItems = AREAS.flatMap((a) => (NAV[a.id] ? [{ id: a.id, ...NAV[a.id]! }] : [])).sort((a, b) => a.order - b.order);

/** The signed-in frame: navigation, the user and sign-out, and the area's screen. */
export function Shell() {
  const state = useSession();
  const isAdmin = state.status === 'signed-in' && state.user.role === 'admin';
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
        <nav aria-label={t.mainNav}>
          <ul>
            {navItems.filter((item) => isAdmin || !item.adminOnly).map(({ id, label, icon: Icon }) => (
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
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
