import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Loading } from '../components/States';
import { ApplicationLayout, MovedToApplication, TabScreens } from './ApplicationLayout';
import { AREAS } from './areas';
import { NotFound } from './NotFound';
import { RequireSession } from './RequireSession';
import { Root } from './Root';
import { Shell } from './Shell';
import { MOVED, TABS } from './tabs';

const lazyScreen = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

const routes: RouteObject[] = [
  {
    element: <Root />,
    HydrateFallback: Loading,
    children: [
      { path: 'sign-in', lazy: lazyScreen(() => import('../routes/auth/SignIn')) },
      { path: 'sign-up', lazy: lazyScreen(() => import('../routes/auth/SignUp')) },
      { path: 'reset-password', lazy: lazyScreen(() => import('../routes/auth/ResetPassword')) },
      {
        element: <RequireSession />,
        children: [
          {
            element: <Shell />,
            children: [
              { index: true, element: <Navigate to="/applications" replace /> },
              ...AREAS.map((a) => ({ path: `${a.id}/*`, lazy: lazyScreen(a.load) })),
              // The application level: one application's tabs (docs/console.md "The two levels").
              {
                path: 'applications/:appId',
                element: <ApplicationLayout />,
                children: [
                  { index: true, element: <Navigate to={TABS[0]!.id} replace /> },
                  ...TABS.map((tab) => ({ path: tab.id, element: <TabScreens tab={tab} /> })),
                  { path: '*', element: <NotFound /> },
                ],
              },
              // The workspace addresses of what is now an application's tab (old bookmarks keep working).
              ...MOVED.map(({ area, tab, always }) => ({
                path: area,
                element: <MovedToApplication tab={tab} always={always} area={AREAS.find((a) => a.id === area)!.load} />,
              })),
              { path: '*', element: <NotFound /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
