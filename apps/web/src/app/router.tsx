import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/errors/not-found-page';
import { RouteError } from '../components/errors/route-error';
import { PageLoader } from '../components/page-loader';
import { withChunkReload } from '../lib/chunk-load-guard';
import { firstRequestOf } from '../lib/first-requests';
import { DefaultLayout } from './layouts/default-layout';

/** Lazy route from a module whose default export is the component; a stale chunk reloads once. */
function lazyComponent(importer: () => Promise<{ default: ComponentType }>) {
  const load = withChunkReload(importer);
  return async () => ({ Component: (await load()).default });
}

/** The logged layout's route: a page under it needs a session (main.tsx restores it at once). */
export const LOGGED_ROUTE_ID = 'logged';
/** The onboarding's layout: signed in too. */
export const ONBOARDING_ROUTE_ID = 'onboarding';
/** The root layout (ROOT users): signed in too. */
export const ROOT_ROUTE_ID = 'root';

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
          { path: 'signup/confirmation', lazy: lazyComponent(() => import('./routes/auth/signup-confirmation')) },
          { path: 'cgu', lazy: lazyComponent(() => import('./routes/auth/cgu')) },
          { path: 'survey/:token?', lazy: lazyComponent(() => import('./routes/survey')) },
        ],
      },
      {
        id: LOGGED_ROUTE_ID,
        lazy: lazyComponent(() => import('./layouts/logged-layout')),
        children: [
          { path: 'dashboard', lazy: lazyComponent(() => import('./routes/app/dashboard')) },
          { path: 'account', lazy: lazyComponent(() => import('./routes/app/account')) },
          // A register's first page is asked on a cold load beside its chunks (lib/first-requests.ts).
          { path: 'drivers', lazy: lazyComponent(() => import('./routes/app/drivers')), handle: firstRequestOf(() => import('../features/drivers/drivers-view')) },
          { path: 'vehicules', lazy: lazyComponent(() => import('./routes/app/vehicules')), handle: firstRequestOf(() => import('../features/vehicules/vehicules-view')) },
          { path: 'sinisters', lazy: lazyComponent(() => import('./routes/app/sinisters')), handle: firstRequestOf(() => import('../features/sinisters/sinisters-view')) },
          { path: 'ged', lazy: lazyComponent(() => import('./routes/app/ged')) },
          { path: 'parameters', lazy: lazyComponent(() => import('./routes/app/parameters')) },
          { path: 'parameters/plans', lazy: lazyComponent(() => import('./routes/app/plans')) },
          { path: 'parameters/plans/checkout', lazy: lazyComponent(() => import('./routes/app/plans-checkout')) },
          { path: 'parameters/plans/confirmation', lazy: lazyComponent(() => import('./routes/app/plans-confirmation')) },
          { path: 'parameters/payment-history', lazy: lazyComponent(() => import('./routes/app/payment-history')) },
          { path: 'media', lazy: lazyComponent(() => import('./routes/app/media')) },
          { path: 'alerts', lazy: lazyComponent(() => import('./routes/app/alerts')) },
          { path: 'superadmin/alerts', lazy: lazyComponent(() => import('./routes/app/superadmin-alerts')) },
          { path: 'superadmin/organization', lazy: lazyComponent(() => import('./routes/superadmin/organizations')) },
          { path: 'superadmin/settings', lazy: lazyComponent(() => import('./routes/superadmin/settings')) },
        ],
      },
      {
        // Signed in, outside the app's navigation (decision 033).
        id: ONBOARDING_ROUTE_ID,
        lazy: lazyComponent(() => import('./layouts/onboarding-layout')),
        children: [
          { path: 'onboarding', lazy: lazyComponent(() => import('./routes/onboarding/welcome')) },
          { path: 'onboarding/company', lazy: lazyComponent(() => import('./routes/onboarding/company')) },
          { path: 'onboarding/members', lazy: lazyComponent(() => import('./routes/onboarding/members')) },
          { path: 'onboarding/finish', lazy: lazyComponent(() => import('./routes/onboarding/finish')) },
        ],
      },
      {
        // The operator's area (issue 17): the icon menu and its pages, ROOT only (others: the 404 page).
        id: ROOT_ROUTE_ID,
        lazy: lazyComponent(() => import('./layouts/root-layout')),
        children: [{ path: 'root/spaces', lazy: lazyComponent(() => import('./routes/root/spaces')) }],
      },
      { element: <DefaultLayout />, children: [{ path: '*', element: <NotFoundPage /> }] },
    ],
  },
];

/** Whether the page at `pathname` is behind the login (under the logged layout). */
export function needsSession(pathname: string): boolean {
  return matchRoutes(routes, pathname)?.some((match) => match.route.id === LOGGED_ROUTE_ID || match.route.id === ONBOARDING_ROUTE_ID || match.route.id === ROOT_ROUTE_ID) ?? false;
}
