import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Loading } from '../components/States';
import { AREAS } from './areas';
import { NotFound } from './NotFound';
import { RequireSession } from './RequireSession';
import { Root } from './Root';
import { Shell } from './Shell';

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
              ...AREAS.map((a) => ({ path: `${a.id}/*`, lazy: lazyScreen(a.load) })),
              { path: '*', element: <NotFound /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
