import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { session } from '../api/client';
import { NetworkBanner } from './NetworkBanner';

let started = false;

/**
 * Starts the session once per page: a finished GitHub, Google or SSO sign-in arrives as `?code=` (a
 * one-time code, not a token), which is exchanged and removed from the address at once; otherwise the
 * refresh cookie, if any, is turned into a session.
 */
export function Root() {
  const navigate = useNavigate();
  useEffect(() => {
    if (started) return;
    started = true;
    const url = new URL(window.location.href);
    const code = url.searchParams.get('code');
    if (code) {
      url.searchParams.delete('code');
      window.history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
      session.signIn('exchange', { code }).then(
        () => navigate('/', { replace: true }),
        () => {
          void navigate('/sign-in?failed=external', { replace: true });
          void session.restore();
        },
      );
      return;
    }
    void session.restore();
  }, [navigate]);
  return (
    <>
      <NetworkBanner />
      <Outlet />
    </>
  );
}
