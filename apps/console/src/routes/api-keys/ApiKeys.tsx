import { Ban, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useApplicationChoices, useApplicationContext } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { formatNumber } from '../../lib/format';
import { CreateKeyDialog } from './CreateKeyDialog';
import { EmbedPanel } from './EmbedPanel';
import { useApiKeys, useDeleteApiKey, useRevokeApiKey, type ApiKey, type CreatedApiKey } from './queries';
import { s } from './strings';

/**
 * API keys (create with the raw key shown once, revoke, delete) and the widget snippet with its live preview. Inside
 * an application's page: the keys that reach it (its own and those for all applications) and its snippet.
 */
export default function ApiKeys() {
  const current = useApplicationContext();
  const allKeys = useApiKeys();
  const keys = current ? { ...allKeys, data: allKeys.data?.filter((k) => !k.applicationId || k.applicationId === current.id) } : allKeys;
  const choices = useApplicationChoices();
  const apps = current ? { ...choices, data: [current] } : choices;
  const revoke = useRevokeApiKey();
  const remove = useDeleteApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [createdShown, setCreatedShown] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [embedApp, setEmbedApp] = useState('');
  useEffect(() => {
    if (current) setEmbedApp(current.id!);
    else if (!embedApp && apps.data?.length) setEmbedApp(new URLSearchParams(window.location.search).get('app') ?? apps.data[0]!.id!);
  }, [apps.data, embedApp, current]);
  const appName = (id?: string | null) => (id ? (choices.data?.find((a) => a.id === id)?.name ?? id) : s.allApplications);

  const createButton = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden size={16} />
      {s.create}
    </Button>
  );

  let list;
  if (keys.isPending) list = <Loading />;
  else if (keys.isError) list = <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  else if (!keys.data?.length) list = <EmptyState title={s.empty} action={createButton}>{s.emptyBody}</EmptyState>;
  else
    list = (
      <DataTable
        rows={keys.data ?? []}
        rowKey={(k) => k.id!}
        columns={[
          { header: s.columns.name, rowHeader: true, cell: (k) => k.name },
          {
            header: s.columns.key,
            cell: (k) => (
              <code>
                {k.keyPrefix}…{k.keyHint}
              </code>
            ),
          },
          { header: s.columns.scope, cell: (k) => appName(k.applicationId) },
          { header: s.columns.limit, cell: (k) => s.perMinute(k.rateLimit ?? 0) },
          { header: s.columns.used, cell: (k) => formatNumber(k.requestCount ?? 0) },
          { header: s.columns.status, cell: (k) => (k.isActive ? s.active : s.revoked) },
        ]}
        actions={(k) => (
          <>
            {k.isActive ? (
              <Button variant="ghost" aria-label={s.revokeLabel(k.name ?? '')} onClick={() => setRevoking(k)}>
                <Ban aria-hidden size={16} />
              </Button>
            ) : null}
            <Button variant="ghost" aria-label={s.deleteLabel(k.name ?? '')} onClick={() => setDeleting(k)}>
              <Trash2 aria-hidden size={16} />
            </Button>
          </>
        )}
      />
    );

  return (
    <>
      <PageHeader title={s.title} description={s.description} actions={keys.data?.length ? createButton : undefined} />
      <div className="ap-stack">
        {list}
        {apps.data?.length && embedApp ? <EmbedPanel apps={apps.data} appId={embedApp} onAppChange={setEmbedApp} created={created} /> : null}
      </div>
      <CreateKeyDialog
        open={creating}
        defaultApplicationId={embedApp}
        created={createdShown ? created : null}
        onCreated={(key) => {
          setCreated(key);
          setCreatedShown(true);
          if (key.applicationId) setEmbedApp(key.applicationId);
        }}
        onOpenChange={(open) => {
          setCreating(open);
          if (!open) setCreatedShown(false);
        }}
      />
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={s.revokeTitle(revoking?.name ?? '')}
        description={s.revokeBody}
        confirmLabel={s.revoke}
        busy={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking.id!, { onSuccess: () => setRevoking(null) })}
      />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={s.deleteTitle(deleting?.name ?? '')}
        description={s.deleteBody}
        confirmLabel={s.delete}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting.id!, { onSuccess: () => setDeleting(null) })}
      />
    </>
  );
}
