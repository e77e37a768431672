import { Settings2 } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApplicationScope, type ApplicationChoice } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { formatNumber } from '../../lib/format';
import { InstallationPanel } from './InstallationPanel';
import { useInstall, useInstallations, usePlugins, useTeamRoles } from './queries';
import { Sections } from './Sections';
import { SettingsForm } from './SettingsForm';
import { s } from './strings';

/** Installations per application: install one of my (or a published) plugin, then manage each. */
export function Installations() {
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <Sections />
      <ApplicationScope id="pl-app" emptyBody={s.noAppsBody}>
        {(appId, application) => <InstalledIn key={appId} appId={appId} application={application} />}
      </ApplicationScope>
    </>
  );
}

/**
 * Why the caller may not manage this application's plugins, or null when they may: a team application needs
 * the Admin role or above in its team (the API answers 403 otherwise).
 */
function useManageBlock(application: ApplicationChoice): string | null {
  const teams = useTeamRoles();
  if (!application.teamId) return null;
  const role = teams.data?.find((t) => t.id === application.teamId)?.role;
  if (!role) return null; // not known yet, or not listed: the API stays the authority
  return role === 'owner' || role === 'admin' ? null : s.roleCannot(role);
}

function InstalledIn({ appId, application }: { appId: string; application: ApplicationChoice }) {
  const [params, setParams] = useSearchParams();
  const installations = useInstallations(appId);
  const plugins = usePlugins();
  const install = useInstall(appId);
  const blocked = useManageBlock(application);
  const [choice, setChoice] = useState(params.get('install') ?? '');
  const [installing, setInstalling] = useState(false);
  const [managing, setManaging] = useState<string | null>(null);

  if (installations.isPending) return <Loading />;
  if (installations.isError) return <ErrorState error={installations.error} onRetry={() => void installations.refetch()} />;

  const installedIds = new Set(installations.data.map((i) => i.pluginId));
  const installable = (plugins.data ?? []).filter((p) => !installedIds.has(p.id));
  const chosen = installable.find((p) => p.id === choice) ?? installable[0];
  const label = (p: { displayName?: string; name?: string }) => p.displayName || p.name || '';

  const installForm = (
    <section className="ap-card ap-stack" aria-labelledby="pl-install-h">
      <h2 id="pl-install-h">{s.installTitle}</h2>
      {plugins.isError ? <ErrorState error={plugins.error} onRetry={() => void plugins.refetch()} /> : null}
      {plugins.isPending ? (
        <Loading />
      ) : installable.length ? (
        <div className="ap-pl-row">
          <div className="ap-field">
            <label htmlFor="pl-choice">{s.plugin}</label>
            <select id="pl-choice" className="ap-select" value={chosen?.id} onChange={(e) => setChoice(e.target.value)}>
              {installable.map((p) => (
                <option key={p.id} value={p.id}>
                  {label(p)} {p.version}
                </option>
              ))}
            </select>
          </div>
          <Button
            variant="primary"
            disabled={!!blocked}
            aria-describedby={blocked ? 'pl-install-why' : undefined}
            onClick={() => {
              install.reset();
              setInstalling(true);
            }}
          >
            {s.installButton}
          </Button>
        </div>
      ) : (
        <p className="ap-muted">{s.nothingToInstall}</p>
      )}
      {blocked ? (
        <p className="ap-muted" id="pl-install-why">
          {blocked}
        </p>
      ) : null}
    </section>
  );

  return (
    <>
      {installForm}
      {installations.data.length ? (
        <DataTable
          caption={s.installed}
          captionClassName="ap-pl-caption"
          rows={installations.data}
          rowKey={(i) => i.id!}
          rowProps={(i) => ({ 'aria-current': managing === i.id ? 'true' : undefined })}
          columns={[
            {
              header: s.installColumns.plugin,
              rowHeader: true,
              cell: (i) => (
                <>
                  <span className="ap-strong">{label(i)}</span> <span className="ap-muted">{i.version}</span>
                </>
              ),
            },
            { header: s.installColumns.state, cell: (i) => <span className={`ap-pl-state ap-pl-state--${i.state}`}>{s.states[i.state ?? ''] ?? i.state}</span> },
            { header: s.installColumns.calls, cell: (i) => formatNumber(i.counters?.calls ?? 0) },
            { header: s.installColumns.failures, cell: (i) => formatNumber(i.counters?.failures ?? 0) },
          ]}
          actionsLabel={s.columns.actions}
          actions={(i) => (
            <Button variant="ghost" aria-label={s.manageLabel(label(i))} aria-pressed={managing === i.id} onClick={() => setManaging(managing === i.id ? null : i.id!)}>
              <Settings2 aria-hidden size={16} />
            </Button>
          )}
        />
      ) : (
        <EmptyState title={s.noInstallations}>{s.noInstallationsBody}</EmptyState>
      )}
      {managing && installations.data.some((i) => i.id === managing) ? (
        <InstallationPanel key={managing} appId={appId} id={managing} blocked={blocked} onGone={() => setManaging(null)} />
      ) : null}
      <Dialog open={installing} onOpenChange={setInstalling} title={s.installDialog(chosen ? label(chosen) : '')}>
        {installing && chosen ? (
          <SettingsForm
            specs={chosen.manifest?.settings ?? {}}
            submitLabel={s.installButton}
            busy={install.isPending}
            error={install.error}
            onSubmit={(settings) =>
              install.mutate(
                { pluginId: chosen.id!, settings },
                {
                  onSuccess: (created) => {
                    setInstalling(false);
                    setManaging(created.id ?? null);
                    if (params.has('install')) {
                      const next = new URLSearchParams(params);
                      next.delete('install');
                      setParams(next, { replace: true });
                    }
                  },
                },
              )
            }
          />
        ) : null}
      </Dialog>
    </>
  );
}
