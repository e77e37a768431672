import { FlaskConical, Pencil, Plus, Star, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApplicationScope } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { ConfigForm } from './ConfigForm';
import { useConfigs, useDeleteConfig, useMakeDefault, type ModelConfig } from './queries';
import { s } from './strings';

/** An application's model configs: create, edit, make default, delete, and the way to their A/B versions. */
export default function ModelConfigs() {
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <ApplicationScope id="mc-app" emptyBody={s.noApplicationsBody}>
        {(chosen, application) => <Configs key={chosen} chosen={chosen} teamId={application.teamId ?? null} />}
      </ApplicationScope>
    </>
  );
}

/** The chosen application's configs, with their dialogs; `teamId` (the application's team) decides whose connections the form offers. */
function Configs({ chosen, teamId }: { chosen: string; teamId: string | null }) {
  const list = useConfigs(chosen);
  const makeDefault = useMakeDefault();
  const remove = useDeleteConfig();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ModelConfig | null>(null);
  const [deleting, setDeleting] = useState<ModelConfig | null>(null);

  const createButton = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden size={16} />
      {s.create}
    </Button>
  );

  let configs;
  if (list.isPending) configs = <Loading />;
  else if (list.isError) configs = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.length) configs = <EmptyState title={s.empty} action={createButton}>{s.emptyBody}</EmptyState>;
  else
    configs = (
      <>
        <div className="ap-actions">{createButton}</div>
        <ErrorText error={makeDefault.error} />
        <DataTable
          rows={list.data}
          rowKey={(config) => config._id!}
          columns={[
            {
              header: s.columns.name,
              rowHeader: true,
              cell: (config) => (
                <>
                  <span className="ap-strong">{config.name}</span>
                  {config.isDefault ? <span className="ap-mc-badge">{s.isDefault}</span> : null}
                </>
              ),
            },
            {
              header: s.columns.model,
              cell: (config) => (
                <>
                  {s.providers[config.provider ?? ''] ?? config.provider} · <code>{config.modelId}</code>
                </>
              ),
            },
            { header: s.columns.settings, cell: (config) => s.settingsSummary(config.settings?.temperature, config.settings?.maxTokens, config.settings?.topP) },
          ]}
          actionsLabel={s.columns.actions}
          actions={(config) => (
            <>
              {!config.isDefault ? (
                <Button variant="ghost" aria-label={s.makeDefaultLabel(config.name ?? '')} busy={makeDefault.isPending && makeDefault.variables === config._id} onClick={() => makeDefault.mutate(config._id!)}>
                  <Star aria-hidden size={16} />
                </Button>
              ) : null}
              <Link className="ap-button ap-button--ghost" aria-label={s.versionsLabel(config.name ?? '')} to={`/model-configs/${config._id}`}>
                <FlaskConical aria-hidden size={16} />
              </Link>
              <Button variant="ghost" aria-label={s.editLabel(config.name ?? '')} onClick={() => setEditing(config)}>
                <Pencil aria-hidden size={16} />
              </Button>
              <Button variant="ghost" aria-label={s.deleteLabel(config.name ?? '')} onClick={() => setDeleting(config)}>
                <Trash2 aria-hidden size={16} />
              </Button>
            </>
          )}
        />
      </>
    );

  return (
    <>
      {configs}
      <Dialog open={creating} onOpenChange={setCreating} title={s.createTitle}>
        {creating ? <ConfigForm applicationId={chosen} teamId={teamId} onDone={() => setCreating(false)} /> : null}
      </Dialog>
      <Dialog open={!!editing} onOpenChange={(open) => !open && setEditing(null)} title={s.editTitle}>
        {editing ? <ConfigForm key={editing._id} applicationId={chosen} teamId={teamId} config={editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => {
          if (!open) {
            setDeleting(null);
            remove.reset();
          }
        }}
        title={s.deleteTitle(deleting?.name ?? '')}
        description={s.deleteBody}
        confirmLabel={s.deleteConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting._id!, { onSuccess: () => setDeleting(null) })}
      />
    </>
  );
}
