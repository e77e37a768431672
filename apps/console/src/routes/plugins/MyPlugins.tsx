import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { usePlugins, type Plugin } from './queries';
import { Sections } from './Sections';
import { s } from './strings';

/** My plugins (and the published ones of others): name, version, published or private. */
export function MyPlugins() {
  const list = usePlugins();
  const createLink = (
    <Link className="ap-button ap-button--primary" to="/plugins/new">
      <Plus aria-hidden size={16} />
      {s.create}
    </Link>
  );

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else {
    const mine = list.data.filter((p) => p.isOwner);
    const others = list.data.filter((p) => !p.isOwner);
    body = (
      <>
        {mine.length ? (
          <>
            <div className="ap-actions">{createLink}</div>
            <PluginTable plugins={mine} caption={s.mine} />
          </>
        ) : (
          <EmptyState title={s.empty} action={createLink}>
            {s.emptyBody}
          </EmptyState>
        )}
        {others.length ? <PluginTable plugins={others} caption={s.others} /> : null}
      </>
    );
  }

  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <Sections />
      <div className="ap-stack">{body}</div>
    </>
  );
}

function PluginTable({ plugins, caption }: { plugins: Plugin[]; caption: string }) {
  return (
    <DataTable
      caption={caption}
      captionClassName="ap-pl-caption"
      rows={plugins}
      rowKey={(p) => p.id!}
      columns={[
        {
          header: s.columns.name,
          rowHeader: true,
          cell: (p) => (
            <>
              <Link to={`/plugins/${p.id}`} aria-label={s.openLabel(p.displayName || p.name || '')}>
                {p.displayName || p.name}
              </Link>
              <div className="ap-muted">
                <code>{p.name}</code>
                {p.description ? ` · ${p.description}` : ''}
              </div>
            </>
          ),
        },
        { header: s.columns.version, cell: (p) => p.version },
        { header: s.columns.status, cell: (p) => (p.published ? s.published : s.private) },
      ]}
    />
  );
}
