import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { useInstallation, useMove, usePlugin, useSaveSettings, useUninstall } from './queries';
import { SettingsForm } from './SettingsForm';
import { s } from './strings';

/** One installation: its state and circuit breaker, activate / deactivate / uninstall, its settings, its run log (live while active). */
export function InstallationPanel({ appId, id, blocked, onGone }: { appId: string; id: string; blocked: string | null; onGone: () => void }) {
  const installation = useInstallation(appId, id);
  const plugin = usePlugin(installation.data?.pluginId);
  const move = useMove(appId);
  const uninstall = useUninstall(appId);
  const save = useSaveSettings(appId, id);
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState(false);
  const client = useQueryClient();
  const state = installation.data?.state;
  // The breaker (or another tab) may move it while the panel polls: the list above follows.
  useEffect(() => {
    if (state) void client.invalidateQueries({ queryKey: ['plugins', 'installations', appId], exact: true });
  }, [state, appId, client]);

  if (installation.isPending) return <Loading />;
  if (installation.isError) return <ErrorState error={installation.error} onRetry={() => void installation.refetch()} />;
  const i = installation.data;
  const name = i.displayName || i.name || '';
  const tripped = !!i.deactivationReason && i.state === 'deactivated';
  const why = blocked ? 'pl-panel-why' : undefined;

  return (
    <section className="ap-card ap-stack" aria-labelledby="pl-panel-h">
      <h2 id="pl-panel-h">
        {name} <span className="ap-muted">{i.version}</span>
      </h2>
      <p>
        {s.installColumns.state}: <span className={`ap-pl-state ap-pl-state--${i.state}`}>{s.states[i.state ?? ''] ?? i.state}</span>
      </p>
      <div className="ap-actions">
        {i.state === 'activated' ? (
          <Button disabled={!!blocked} aria-describedby={why} busy={move.isPending} onClick={() => move.mutate({ id, to: 'deactivate' })}>
            {s.deactivate}
          </Button>
        ) : (
          <Button variant="primary" disabled={!!blocked} aria-describedby={why} busy={move.isPending} onClick={() => move.mutate({ id, to: 'activate' })}>
            {s.activate}
          </Button>
        )}
        <Button variant="danger" disabled={!!blocked || i.state === 'activated'} aria-describedby={blocked ? why : i.state === 'activated' ? 'pl-uninstall-why' : undefined} onClick={() => setConfirming(true)}>
          {s.uninstall}
        </Button>
        {!blocked && i.state === 'activated' ? (
          <span className="ap-muted" id="pl-uninstall-why">
            {s.uninstallNeedsDeactivate}
          </span>
        ) : null}
        {blocked ? (
          <span className="ap-muted" id="pl-panel-why">
            {blocked}
          </span>
        ) : null}
      </div>
      <ErrorText error={move.error} />

      <div className={`ap-pl-breaker${tripped ? ' ap-pl-breaker--open' : ''}`} role="group" aria-labelledby="pl-breaker-h">
        <h3 id="pl-breaker-h">{s.breaker}</h3>
        {tripped ? (
          <>
            <p className="ap-strong">{s.breakerTripped}</p>
            <p>{i.deactivationReason}</p>
          </>
        ) : (
          <p>{s.breakerClosed(i.counters?.consecutiveFailures ?? 0)}</p>
        )}
        {i.lastError ? (
          <p>
            {s.lastError}
            {i.lastErrorAt ? ` (${formatDateTime(i.lastErrorAt)})` : ''}: <code>{i.lastError}</code>
          </p>
        ) : null}
      </div>

      <h3>{s.settings}</h3>
      {plugin.isPending ? (
        <Loading />
      ) : plugin.isError && plugin.error instanceof ApiError && plugin.error.status === 404 ? (
        <p className="ap-muted">{s.manifestHidden}</p>
      ) : plugin.isError ? (
        <ErrorState error={plugin.error} onRetry={() => void plugin.refetch()} />
      ) : (
        <SettingsForm
          key={JSON.stringify(i.settings ?? {})}
          specs={plugin.data.manifest?.settings ?? {}}
          current={i.settings as Record<string, unknown> | undefined}
          submitLabel={s.saveSettings}
          busy={save.isPending}
          error={save.error}
          disabledReason={blocked}
          onSubmit={(settings) => {
            setSaved(false);
            save.mutate(settings, { onSuccess: () => setSaved(true) });
          }}
        />
      )}
      <p role="status" className="ap-muted">
        {saved ? s.settingsSaved : ''}
      </p>

      <h3>{s.runLog}</h3>
      {i.runs?.length ? (
        <DataTable
          caption={s.runLog}
          rows={i.runs}
          rowKey={(r, n) => r.id ?? n}
          columns={[
            { header: s.runColumns.at, cell: (r) => (r.at ? formatDateTime(r.at) : '') },
            { header: s.runColumns.kind, cell: (r) => r.kind },
            { header: s.runColumns.name, cell: (r) => <code>{r.name}</code> },
            { header: s.runColumns.outcome, cell: (r) => (r.ok ? s.ok : `${s.failed}: ${r.error ?? ''}`) },
            { header: s.runColumns.duration, cell: (r) => `${r.durationMs ?? 0} ms` },
          ]}
        />
      ) : (
        <p className="ap-muted">{s.noRuns}</p>
      )}

      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          setConfirming(open);
          if (!open) uninstall.reset();
        }}
        title={s.uninstallTitle(name)}
        description={s.uninstallBody}
        confirmLabel={s.uninstall}
        busy={uninstall.isPending}
        error={uninstall.error}
        onConfirm={() =>
          uninstall.mutate(id, {
            onSuccess: () => {
              setConfirming(false);
              onGone();
            },
          })
        }
      />
    </section>
  );
}
