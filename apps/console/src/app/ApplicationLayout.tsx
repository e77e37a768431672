import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useParams, useSearchParams } from 'react-router';
import { api, data } from '../api/client';
import { ApplicationHeader } from '../components/ApplicationHeader';
import { ApplicationContext, useApplicationChoices, useApplicationContext } from '../components/ApplicationScope';
import { TitleLevel } from '../components/PageHeader';
import { ErrorState, Loading } from '../components/States';
import { ApiError } from '../lib/errors';
import { t } from '../lib/strings';
import { NotFound } from './NotFound';
import { TABS, type ApplicationTab } from './tabs';

/** One application, read fresh (its edits invalidate `['applications']`, so the header follows them). */
function useApplicationById(id: string) {
  return useQuery({
    queryKey: ['applications', 'one', id],
    queryFn: () => data(api.GET('/api/applications/{id}', { params: { path: { id } } })),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

/**
 * The application level, `/applications/:appId/<tab>`: the application's header (its name always on screen, the
 * switcher that keeps the tab), its own navigation, and the tab's screens, which take the application from
 * {@link ApplicationContext} and never ask for it again. Titles inside are h2 (the application's name is the h1).
 */
export function ApplicationLayout() {
  const { appId = '' } = useParams();
  const { pathname } = useLocation();
  const app = useApplicationById(appId);
  const tab = pathname.split('/')[3] || TABS[0]!.id;

  if (app.isPending) return <Loading />;
  if (app.isError) {
    if (app.error instanceof ApiError && (app.error.status === 404 || app.error.status === 400)) return <NotFound />;
    return <ErrorState error={app.error} onRetry={() => void app.refetch()} />;
  }
  return (
    <ApplicationContext.Provider value={app.data}>
      <TitleLevel.Provider value={2}>
        <div className="ap-app">
          <ApplicationHeader application={app.data} tab={tab} />
          <nav aria-label={t.appNav} className="ap-app-tabs">
            <ul>
              {TABS.map(({ id, label, icon: Icon }) => (
                <li key={id}>
                  <NavLink to={`/applications/${appId}/${id}`} className="ap-app-tab">
                    <Icon aria-hidden size={16} />
                    <span>{label}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ap-app-body">
            {/* Keyed by application: a switch starts every screen afresh, no state of the other one kept. */}
            <Suspense key={appId} fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </div>
        </div>
      </TitleLevel.Provider>
    </ApplicationContext.Provider>
  );
}

const loaded = new Map<ApplicationTab['screens'][number], ComponentType<{ applicationId: string }>>();
const screenOf = (load: ApplicationTab['screens'][number]) => {
  let screen = loaded.get(load);
  if (!screen) loaded.set(load, (screen = lazy(load)));
  return screen;
};

/** A tab's screens for the page's application, one under the other. */
export function TabScreens({ tab }: { tab: ApplicationTab }) {
  const application = useApplicationContext()!;
  return (
    <div className="ap-stack ap-app-screens">
      {tab.screens.map((load, i) => {
        const Screen = screenOf(load);
        return (
          <section key={i} className="ap-app-screen">
            <Screen applicationId={application.id!} />
          </section>
        );
      })}
    </div>
  );
}

// Lazy components are made once per loader: one made while rendering would be lost with the render it suspends.
const areas = new Map<() => Promise<{ default: ComponentType }>, ComponentType>();
const areaOf = (load: () => Promise<{ default: ComponentType }>) => {
  let area = areas.get(load);
  if (!area) areas.set(load, (area = lazy(load)));
  return area;
};

/**
 * A workspace address of a screen that is now an application's tab (`/knowledge?app=…`): opens that tab for the
 * named application, else (when `always`) for the first one; with no application at all, or for a workspace-wide
 * view with none named, the area's own screen as before.
 */
export function MovedToApplication({ tab, always, area }: { tab: string; always: boolean; area: () => Promise<{ default: ComponentType }> }) {
  const [params] = useSearchParams();
  const subPath = useParams()['*'];
  const wanted = params.get('app');
  const choices = useApplicationChoices();
  const Area = areaOf(area);
  if (subPath) return <Area />;
  if (wanted) {
    const rest = new URLSearchParams(params);
    rest.delete('app');
    const query = rest.size ? `?${rest}` : '';
    return <Navigate replace to={`/applications/${encodeURIComponent(wanted)}/${tab}${query}`} />;
  }
  if (!always) return <Area />;
  if (choices.isPending) return <Loading />;
  if (choices.isError) return <ErrorState error={choices.error} onRetry={() => void choices.refetch()} />;
  const first = choices.data[0];
  if (first) return <Navigate replace to={`/applications/${first.id}/${tab}`} />;
  return <Area />;
}
