import { Navigate, Outlet, useLocation } from 'react-router';
import { Loading } from '../components/States';
import { useSession } from '../lib/use-session';

/** The signed-in part of the console; signed out, the sign-in screen, which returns here afterwards. */
export function RequireSession() {
  const state = useSession();
  const location = useLocation();
  if (state.status === 'unknown') return <Loading />;
  if (state.status === 'signed-out') {
    const next = `${location.pathname}${location.search}`;
    const reason = state.reason === 'expired' ? '&expired=1' : '';
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}${reason}`} replace />;
  }
  return <Outlet />;
}
