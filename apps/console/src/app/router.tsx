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
      { path: 'setup', lazy: lazyScreen(() => import('../routes/auth/Setup')) },
      {
        element: <RequireSession />,
        children: [
          {
            element: <Shell />,
            children: [
              { index: true, element: <Navigate to="/applications" replace /> },
              // An area whose screen is now an application's tab keeps its address: its index opens the tab (old
              // bookmarks keep working), its other screens (`/model-configs/:configId`) stay the area's.
              ...AREAS.map((a) => {
                const moved = MOVED.find((m) => m.area === a.id);
                return moved
                  ? { path: `${a.id}/*`, element: <MovedToApplication tab={moved.tab} always={moved.always} area={a.load} /> }
                  : { path: `${a.id}/*`, lazy: lazyScreen(a.load) };
              }),
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
              { path: '*', element: <NotFound /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
