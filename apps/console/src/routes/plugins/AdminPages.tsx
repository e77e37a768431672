import { useState } from 'react';
import { ApplicationScope } from '../../components/ApplicationScope';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { useAdminPageDocument, useAdminPages, type AdminPage } from './queries';
import { Sections } from './Sections';
import { s } from './strings';

/** The admin pages of the application's active plugins, each shown in a sandboxed frame. */
export function AdminPages() {
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <Sections />
      <ApplicationScope id="pl-pages-app" emptyBody={s.noAppsBody}>
        {(appId) => <PagesOf key={appId} appId={appId} />}
      </ApplicationScope>
    </>
  );
}

const pageKey = (p: AdminPage) => `${p.installationId}:${p.path}`;

function PagesOf({ appId }: { appId: string }) {
  const pages = useAdminPages(appId);
  const [chosen, setChosen] = useState<string | null>(null);

  if (pages.isPending) return <Loading />;
  if (pages.isError) return <ErrorState error={pages.error} onRetry={() => void pages.refetch()} />;
  if (!pages.data.length) return <EmptyState title={s.noPages}>{s.noPagesBody}</EmptyState>;

  const current = pages.data.find((p) => pageKey(p) === chosen) ?? pages.data[0]!;
  const groups = new Map<string, AdminPage[]>();
  for (const page of pages.data) groups.set(page.group ?? '', [...(groups.get(page.group ?? '') ?? []), page]);

  return (
    <div className="ap-pl-pages">
      <nav aria-label={s.pagesList}>
        {[...groups].map(([group, list]) => (
          <div key={group}>
            {group ? <h2 className="ap-pl-group">{group}</h2> : null}
            <ul className="ap-pl-pagelist">
              {list.map((page) => (
                <li key={pageKey(page)}>
                  <button type="button" className="ap-button ap-button--ghost" aria-current={pageKey(page) === pageKey(current) ? 'page' : undefined} onClick={() => setChosen(pageKey(page))}>
                    {page.title || page.path}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <PageFrame appId={appId} page={current} />
    </div>
  );
}

/**
 * The page's document, fetched from the plugin's endpoint, in a frame sandboxed with scripts only: without
 * `allow-same-origin` it runs in an opaque origin, so it cannot read the console's cookies, storage or DOM, and
 * it inherits the console's CSP (no inline scripts, no network but the platform).
 */
function PageFrame({ appId, page }: { appId: string; page: AdminPage }) {
  const doc = useAdminPageDocument(appId, page);
  return (
    <div className="ap-stack">
      {doc.isPending ? <Loading /> : doc.isError ? <ErrorState error={doc.error} onRetry={() => void doc.refetch()} /> : <iframe className="ap-preview" title={s.pageFrame(page.title || page.path || '')} sandbox="allow-scripts" referrerPolicy="no-referrer" srcDoc={doc.data} />}
      <p className="ap-muted">{s.sandboxNote}</p>
    </div>
  );
}
