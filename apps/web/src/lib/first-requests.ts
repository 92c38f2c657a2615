import { matchRoutes, type RouteObject } from 'react-router';
import { type QueryValue, startEarlyGet } from './api-client';

/** A module telling the first GET its screen asks for a URL's search params (a register's view). */
export type FirstRequestModule = {
  firstRequest: (searchParams: URLSearchParams) => { path: string; query: Record<string, QueryValue> };
};

/**
 * A route's `handle` declaring its screen's first request: `handle: firstRequestOf(() =>
 * import('…/sinisters-view'))`. The module is small (the list's path, sorts and filters), fetched
 * beside the screen's chunks.
 */
export type FirstRequestHandle = { firstRequest: () => Promise<FirstRequestModule> };

export function firstRequestOf(load: () => Promise<FirstRequestModule>): FirstRequestHandle {
  return { firstRequest: load };
}

const isFirstRequestHandle = (handle: unknown): handle is FirstRequestHandle =>
  typeof handle === 'object' && handle !== null && typeof (handle as FirstRequestHandle).firstRequest === 'function';

/**
 * On a cold load of a page behind the login, asks the page's data as soon as the session's token
 * is there, beside the download of the page's chunks rather than after them and after its first
 * render (issue 10: the register's summary line, its largest paint, waited for that). The screen's
 * own request takes the answer (lib/api-client.ts startEarlyGet). Nothing happens for a route that
 * declares no first request, without a session, or when the module fails to load: the screen then
 * asks itself, as always.
 */
export function startFirstRequests(routes: RouteObject[], location: { pathname: string; search: string }, tokenReady: Promise<boolean>): Promise<void> {
  const handles = (matchRoutes(routes, location.pathname) ?? []).map((match) => match.route.handle).filter(isFirstRequestHandle);
  if (handles.length === 0) return Promise.resolve();
  return Promise.all([Promise.all(handles.map((handle) => handle.firstRequest())), tokenReady])
    .then(([modules, ready]) => {
      if (!ready) return;
      const searchParams = new URLSearchParams(location.search);
      for (const module of modules) {
        const { path, query } = module.firstRequest(searchParams);
        startEarlyGet(path, query);
      }
    })
    .catch(() => undefined);
}
