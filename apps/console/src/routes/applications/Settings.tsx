import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useApplicationContext } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageHeader } from '../../components/PageHeader';
import { ErrorText } from '../../components/States';
import { teamsQuery } from '../../lib/teams';
import { ApplicationForm } from './ApplicationForm';
import { useDeleteApplication, useTransferApplication } from './queries';
import { s } from './strings';

const st = s.settings;

/** An application's Settings: name, description, slug and origins (the applications form), the move into a team, delete. */
export default function Settings({ applicationId }: { applicationId: string }) {
  const app = useApplicationContext()!;
  const [saved, setSaved] = useState(false);
  return (
    <>
      <PageHeader title={st.title} description={st.description} />
      <div className="ap-stack">
        <section className="ap-card ap-stack" aria-label={st.title}>
          <ApplicationForm key={`${app.id}-${app.updatedAt}`} application={app} onDone={() => setSaved(true)} />
          <p role="status" className="ap-muted">
            {saved ? st.saved : ''}
          </p>
        </section>
        <Transfer applicationId={applicationId} teamId={app.teamId ?? null} />
        <Danger applicationId={applicationId} name={app.name ?? ''} />
      </div>
    </>
  );
}

/** Move into a team where the caller is Admin or above (the API checks the rights and the Owner's plan). */
function Transfer({ applicationId, teamId }: { applicationId: string; teamId: string | null }) {
  // Read afresh, under a key of its own: a team joined since the list was cached is a place to move it to, and a
  // read of the shared list already under way (begun before that team existed) is not taken for a fresh one.
  const teams = useQuery({ queryKey: [...teamsQuery.queryKey, 'to-move-into'], queryFn: teamsQuery.queryFn, staleTime: 0, gcTime: 0, refetchOnMount: 'always' });
  const transfer = useTransferApplication(applicationId);
  const [target, setTarget] = useState('');
  const [done, setDone] = useState('');
  const eligible = (teams.data ?? []).filter((team) => team.id !== teamId && (team.role === 'owner' || team.role === 'admin'));
  const current = teamId ? teams.data?.find((team) => team.id === teamId) : null;
  return (
    <section className="ap-card ap-stack" aria-labelledby="app-transfer">
      <h3 id="app-transfer">{st.transferTitle}</h3>
      <p className="ap-muted">{st.transferBody}</p>
      {current ? <p>{st.inTeam(current.name)}</p> : null}
      {!teams.isSuccess ? null : !eligible.length ? (
        <p className="ap-muted">{st.transferNeedsTeam}</p>
      ) : (
        <form
          className="ap-inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!target) return;
            transfer.mutate(target, { onSuccess: () => setDone(st.transferred(eligible.find((team) => team.id === target)?.name ?? '')) });
          }}
        >
          <div className="ap-field">
            <label htmlFor="app-transfer-team">{st.transferTeam}</label>
            <select id="app-transfer-team" className="ap-select" value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">{st.transferChoose}</option>
              {eligible.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" busy={transfer.isPending} disabled={!target}>
            {st.transfer}
          </Button>
        </form>
      )}
      <ErrorText error={transfer.error ?? teams.error} />
      <p role="status" className="ap-muted">
        {done}
      </p>
    </section>
  );
}

/** Delete, confirmed; then back to the applications list. */
function Danger({ applicationId, name }: { applicationId: string; name: string }) {
  const remove = useDeleteApplication();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  return (
    <section className="ap-card ap-stack" aria-labelledby="app-delete">
      <h3 id="app-delete">{st.dangerTitle}</h3>
      <p className="ap-muted">{st.dangerBody}</p>
      <div className="ap-actions">
        <Button variant="danger" onClick={() => setOpen(true)}>
          {s.deleteConfirm}
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) remove.reset();
        }}
        title={s.deleteTitle(name)}
        description={s.deleteBody}
        confirmLabel={s.deleteConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(applicationId, { onSuccess: () => void navigate('/applications', { replace: true }) })}
      />
    </section>
  );
}

