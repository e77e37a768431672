import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, Loading } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { CodeEditor } from '../../components/CodeEditor';
import { usePlugin, usePublish } from './queries';
import { s } from './strings';

/** One plugin: its manifest (settings, permissions, versions), its source read-only, publish. */
export function PluginDetail() {
  const { id } = useParams();
  const plugin = usePlugin(id);
  const publish = usePublish(id!);
  const [confirming, setConfirming] = useState(false);

  if (plugin.isPending) return <Loading />;
  if (plugin.isError) return <ErrorState error={plugin.error} onRetry={() => void plugin.refetch()} />;
  const p = plugin.data;
  const settings = Object.entries(p.manifest?.settings ?? {});
  const hosts = p.manifest?.permissions?.hosts ?? [];
  const events = p.manifest?.permissions?.events ?? [];

  return (
    <>
      <Link className="ap-button ap-button--ghost" to="/plugins">
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      <PageHeader title={p.displayName || p.name || ''} description={p.description ?? undefined} />
      <div className="ap-stack">
        <p>
          <code>{p.name}</code> · {p.version} · {p.published ? s.publishedOn(p.publishedAt ? formatDateTime(p.publishedAt) : '') : s.private}
        </p>
        <div className="ap-actions">
          {p.isOwner && !p.published ? (
            <Button variant="primary" onClick={() => setConfirming(true)}>
              {s.publish}
            </Button>
          ) : null}
          <Link className="ap-button ap-button--secondary" to={`/plugins/installed?install=${p.id}`}>
            {s.install}
          </Link>
        </div>
        {p.isOwner && !p.published ? <p className="ap-muted">{s.publishHint}</p> : null}

        <section className="ap-card ap-stack" aria-labelledby="pl-settings-h">
          <h2 id="pl-settings-h">{s.settings}</h2>
          {settings.length ? (
            <ul>
              {settings.map(([name, spec]) => (
                <li key={name}>
                  <code>{name}</code> · {spec.type}
                  {spec.items ? `<${spec.items}>` : ''}
                  {spec.required ? ` · ${s.requiredSetting}` : ''}
                  {spec.secret ? ` · ${s.secretSetting}` : ''}
                  {spec.description ? ` · ${spec.description}` : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p className="ap-muted">{s.noSettings}</p>
          )}
          <h2>{s.permissions}</h2>
          {hosts.length || events.length ? (
            <ul>
              {hosts.map((h) => (
                <li key={`h-${h}`}>
                  {s.hosts}: <code>{h}</code>
                </li>
              ))}
              {events.map((e) => (
                <li key={`e-${e}`}>
                  {s.events}: <code>{e}</code>
                </li>
              ))}
            </ul>
          ) : (
            <p className="ap-muted">{s.noPermissions}</p>
          )}
          <h2>{s.versions}</h2>
          <ul>
            {(p.versions ?? []).map((v) => (
              <li key={v.version}>
                {v.version}
                {v.current ? ` (${s.current})` : ''}
              </li>
            ))}
          </ul>
        </section>
        {p.source !== undefined ? <CodeEditor id="pl-view-source" label={s.source} language="javascript" value={p.source} readOnly /> : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          setConfirming(open);
          if (!open) publish.reset();
        }}
        title={s.publishTitle}
        description={s.publishBody}
        confirmLabel={s.publish}
        busy={publish.isPending}
        error={publish.error}
        onConfirm={() => publish.mutate(undefined, { onSuccess: () => setConfirming(false) })}
      />
    </>
  );
}
