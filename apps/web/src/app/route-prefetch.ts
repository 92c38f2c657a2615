import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Starts downloading the chunks of the routes that `path` would render (their `lazy` modules),
 * without navigating: the router finds them already loaded when it gets there. A failure is left
 * to the navigation itself, which shows the route error then.
 */
export function prefetchRoute(routes: RouteObject[], path: string): void {
  for (const match of matchRoutes(routes, path) ?? []) {
    const { lazy } = match.route;
    if (typeof lazy === 'function') void Promise.resolve(lazy()).catch(() => undefined);
  }
}
