import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, data } from '../api/client';
import { t } from '../lib/strings';
import { EmptyState, ErrorState, Loading } from './States';

/** The caller's applications (the first 100), for the screens whose content belongs to one application. */
export function useApplicationChoices() {
  return useQuery({
    queryKey: ['applications', 'choices'],
    queryFn: () => data(api.GET('/api/applications', { params: { query: { page: 1, limit: 100 } } })),
  });
}

export type ApplicationChoice = NonNullable<ReturnType<typeof useApplicationChoices>['data']>[number];

/**
 * The application an application-level page (`/applications/:appId/...`) is about, provided by its layout
 * (`app/ApplicationLayout.tsx`); null elsewhere. A screen inside it never asks which application again.
 */
export const ApplicationContext = createContext<ApplicationChoice | null>(null);

/** The application of the application-level page this screen is shown in, or null on a workspace page. */
export function useApplicationContext(): ApplicationChoice | null {
  return useContext(ApplicationContext);
}

/**
 * The block every per-application screen starts with. Inside an application-level page it is the screen for
 * that page's application, with no choice shown. Elsewhere: : the caller's applications loading, failing, or empty (with the way to create one), else a labelled choice kept in `?app=` and the screen for the chosen one.
 * `children` receives the chosen application's id and the application itself.
 */
export function ApplicationScope({
  id,
  emptyBody,
  children,
}: {
  /** The select's element id, unique on the page. */
  id: string;
  /** Why this screen needs an application, shown when there is none. */
  emptyBody: string;
  children: (applicationId: string, application: ApplicationChoice) => ReactNode;
}) {
  const current = useApplicationContext();
  if (current) return <>{children(current.id!, current)}</>;
  return (
    <ApplicationPicker id={id} emptyBody={emptyBody}>
      {children}
    </ApplicationPicker>
  );
}

/** The workspace-level form of {@link ApplicationScope}: a labelled choice kept in `?app=`. */
function ApplicationPicker({ id, emptyBody, children }: { id: string; emptyBody: string; children: (applicationId: string, application: ApplicationChoice) => ReactNode }) {
  const apps = useApplicationChoices();
  const [params, setParams] = useSearchParams();

  if (apps.isPending) return <Loading />;
  if (apps.isError) return <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />;
  if (!apps.data.length)
    return (
      <EmptyState
        title={t.noApplications}
        action={
          <Link className="ap-button ap-button--primary" to="/applications">
            {t.createApplication}
          </Link>
        }
      >
        {emptyBody}
      </EmptyState>
    );

  const wanted = params.get('app');
  const chosen = apps.data.find((app) => app.id === wanted) ?? apps.data[0]!;
  return (
    <div className="ap-stack">
      <div className="ap-field">
        <label htmlFor={id}>{t.application}</label>
        <select
          id={id}
          className="ap-select"
          value={chosen.id}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            next.set('app', e.target.value);
            setParams(next);
          }}
        >
          {apps.data.map((app) => (
            <option key={app.id} value={app.id}>
              {app.name}
            </option>
          ))}
        </select>
      </div>
      {children(chosen.id!, chosen)}
    </div>
  );
}
