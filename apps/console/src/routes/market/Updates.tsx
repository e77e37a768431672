import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { useItem, useUpdates, useUpgrade, type Update } from './queries';
import { s } from './strings';

/** Installed marketplace plugins with a newer compatible version, each with an upgrade that keeps settings and data. */
export default function Updates() {
  const list = useUpdates();
  const upgrade = useUpgrade();
  const [result, setResult] = useState('');

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.length) body = <EmptyState title={s.noUpdates}>{s.noUpdatesBody}</EmptyState>;
  else
    body = (
      <div className="ap-table-wrap">
        <table className="ap-table">
          <thead>
            <tr>
              <th scope="col">{s.updateColumns.plugin}</th>
              <th scope="col">{s.updateColumns.current}</th>
              <th scope="col">{s.updateColumns.latest}</th>
              <th scope="col">{s.updateColumns.changelog}</th>
              <th scope="col">
                <span className="ap-visually-hidden">{s.upgradeButton}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((u) => (
              <UpdateRow key={u.installedPluginId} update={u} upgrade={upgrade} onDone={setResult} />
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <>
      <Link className="ap-button ap-button--ghost" to="/market">
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      <PageHeader title={s.updatesTitle} description={s.updatesDescription} />
      <p role="status" className={result ? 'ap-notice' : 'ap-visually-hidden'}>
        {result}
      </p>
      <ErrorText error={upgrade.error} />
      {body}
    </>
  );
}

/** One update: the plugin's marketplace name (the entry carries only ids), the versions, the changes, Upgrade. */
function UpdateRow({ update: u, upgrade, onDone }: { update: Update; upgrade: ReturnType<typeof useUpgrade>; onDone: (message: string) => void }) {
  const item = useItem('plugins', u.marketplacePluginId);
  const name = item.data ? item.data.displayName || item.data.name : u.pluginId;
  return (
    <tr>
      <th scope="row">
        <Link to={`/market/plugins/${u.marketplacePluginId}`}>{name}</Link>
      </th>
      <td>{u.currentVersion}</td>
      <td>{u.latestVersion}</td>
      <td className="ap-mk-text">{u.changelog || s.noChangelog}</td>
      <td className="ap-row-actions">
        <Button
          variant="primary"
          aria-label={s.upgrade(name)}
          busy={upgrade.isPending && upgrade.variables === u.installedPluginId}
          onClick={() =>
            upgrade.mutate(u.installedPluginId, {
              onSuccess: (r) =>
                onDone([s.upgraded(r.previousVersion ?? u.currentVersion, r.version ?? u.latestVersion), r.reactivationError ? s.reactivation(r.reactivationError) : ''].filter(Boolean).join(' ')),
            })
          }
        >
          {s.upgradeButton}
        </Button>
      </td>
    </tr>
  );
}
