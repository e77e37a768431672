import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorText } from '../../components/States';
import { useAcceptInvitation } from './queries';
import { s } from './strings';

/**
 * The page the invitation e-mail's link opens (`/teams/accept?token=…`): the token is taken out of the
 * address at once (kept in memory only) and the invited person joins with one click.
 */
export default function Accept() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token, setToken] = useState(() => new URLSearchParams(location.search).get('token') ?? '');
  const accept = useAcceptInvitation();
  useEffect(() => {
    if (new URLSearchParams(location.search).has('token')) navigate('/teams/accept', { replace: true });
  }, [location.search, navigate]);
  return (
    <>
      <PageHeader title={s.acceptTitle} description={s.acceptBody} />
      {accept.isSuccess ? (
        <div className="ap-stack">
          <p className="ap-notice" role="status">
            {s.joined(accept.data.name)}
          </p>
          <div className="ap-actions">
            <Link className="ap-button ap-button--primary" to={`/teams/${accept.data.id}`}>
              {s.openTeam}
            </Link>
          </div>
        </div>
      ) : (
        <form
          className="ap-stack ap-card"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (token.trim()) accept.mutate(token.trim());
          }}
        >
          <Field label={s.acceptToken} hint={s.acceptTokenHint} autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
          <ErrorText error={accept.error} />
          <div className="ap-actions">
            <Button type="submit" variant="primary" disabled={!token.trim()} busy={accept.isPending}>
              {s.acceptButton}
            </Button>
          </div>
        </form>
      )}
    </>
  );
}
