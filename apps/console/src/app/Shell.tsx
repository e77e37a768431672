import { LogOut, Menu, X } from 'lucide-react';
import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
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

/**
 * The signed-in frame: the workspace navigation, the user and sign-out, and the area's screen. At phone widths the
 * navigation folds behind the Menu button (closed on every navigation), so the screen's content comes first.
 */
export function Shell() {
  const state = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setMenuOpen(false), [pathname]);
  const admin = state.status === 'signed-in' && state.user.role === 'admin';
  const payments = usePayments() === true;
  // The area remounts when the personal/team context changes, so its queries take the new scope's keys.
  const scopeKey = useScope();
  return (
    <div className="ap-shell">
      <a className="ap-skip" href="#main">
        {t.skipToContent}
      </a>
      <aside className={menuOpen ? 'ap-sidebar ap-sidebar--open' : 'ap-sidebar'}>
        <div className="ap-sidebar__header">
          <div className="ap-brand">{t.product}</div>
          <div className="ap-sidebar__tools">
            <NotificationBell />
            <button type="button" className="ap-button ap-button--ghost ap-menu-button" aria-expanded={menuOpen} aria-controls="ap-workspace-menu" onClick={() => setMenuOpen(!menuOpen)}>
              {menuOpen ? <X aria-hidden size={18} /> : <Menu aria-hidden size={18} />}
              <span>{t.menu}</span>
            </button>
          </div>
        </div>
        <div id="ap-workspace-menu" className="ap-sidebar__menu">
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
