export const DEFAULT_ROUTE = '/dashboard';

/** A `route` query parameter is only followed when it stays on this site (no `//evil.example`). */
export function safeRoute(route: string | null | undefined, fallback = DEFAULT_ROUTE): string {
  if (!route || !route.startsWith('/') || route.startsWith('//') || route.startsWith('/\\')) return fallback;
  return route;
}

/** `/refresh?route=…` or `/?route=…` for the page the user was on. */
export function withRoute(target: string, route: string): string {
  return `${target}?${new URLSearchParams({ route }).toString()}`;
}
