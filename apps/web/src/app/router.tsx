import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/errors/not-found-page';
import { RouteError } from '../components/errors/route-error';
import { PageLoader } from '../components/page-loader';
import { withChunkReload } from '../lib/chunk-load-guard';
import { DefaultLayout } from './layouts/default-layout';

/** Lazy route from a module whose default export is the component; a stale chunk reloads once. */
function lazyComponent(importer: () => Promise<{ default: ComponentType }>) {
  const load = withChunkReload(importer);
  return async () => ({ Component: (await load()).default });
}

/** The logged layout's route: a page under it needs a session (main.tsx restores it at once). */
export const LOGGED_ROUTE_ID = 'logged';

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoader fullScreen />,
    children: [
      {
        lazy: lazyComponent(() => import('./layouts/public-layout')),
        children: [
          { index: true, lazy: lazyComponent(() => import('./routes/auth/login')) },
          { path: 'refresh', lazy: lazyComponent(() => import('./routes/auth/refresh')) },
          { path: 'recover', lazy: lazyComponent(() => import('./routes/auth/recover')) },
          { path: 'recover/email', lazy: lazyComponent(() => import('./routes/auth/recover-email')) },
          { path: 'recover/password', lazy: lazyComponent(() => import('./routes/auth/recover-password')) },
          { path: 'recover/confirmation', lazy: lazyComponent(() => import('./routes/auth/recover-confirmation')) },
          { path: 'signup', lazy: lazyComponent(() => import('./routes/auth/signup')) },
          { path: 'cgu', lazy: lazyComponent(() => import('./routes/auth/cgu')) },
        ],
      },
      {
        id: LOGGED_ROUTE_ID,
        lazy: lazyComponent(() => import('./layouts/logged-layout')),
        children: [
          { path: 'dashboard', lazy: lazyComponent(() => import('./routes/app/dashboard')) },
          { path: 'account', lazy: lazyComponent(() => import('./routes/app/account')) },
          { path: 'drivers', lazy: lazyComponent(() => import('./routes/app/drivers')) },
          { path: 'vehicules', lazy: lazyComponent(() => import('./routes/app/vehicules')) },
          { path: 'sinisters', lazy: lazyComponent(() => import('./routes/app/sinisters')) },
          { path: 'parameters', lazy: lazyComponent(() => import('./routes/app/parameters')) },
          { path: 'media', lazy: lazyComponent(() => import('./routes/app/media')) },
        ],
      },
      // The root layout (./layouts/root-layout) mounts here with /root/spaces in its own issue.
      { element: <DefaultLayout />, children: [{ path: '*', element: <NotFoundPage /> }] },
    ],
  },
];

/** Whether the page at `pathname` is behind the login (under the logged layout). */
export function needsSession(pathname: string): boolean {
  return matchRoutes(routes, pathname)?.some((match) => match.route.id === LOGGED_ROUTE_ID) ?? false;
}
