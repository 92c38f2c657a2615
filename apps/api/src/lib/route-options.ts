import type { RouteOptions } from 'fastify';

type HookName = 'preParsing' | 'preHandler' | 'onSend' | 'onResponse';

/** A route's methods as a list (`route.method` is one or several). */
export function methodsOf(route: Pick<RouteOptions, 'method'>): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

/**
 * Adds a hook to one route's own hooks at `onRoute` time, before (`first`) or after (`last`) the
 * ones it declares: the plugins that give a route its behaviour from its declaration
 * (route-access, idempotency) each add theirs without replacing the route's.
 */
export function addRouteHook<K extends HookName>(route: RouteOptions, name: K, hook: NonNullable<RouteOptions[K]>, where: 'first' | 'last' = 'last') {
  const existing = route[name];
  const own = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  const added = Array.isArray(hook) ? hook : [hook];
  route[name] = (where === 'first' ? [...added, ...own] : [...own, ...added]) as RouteOptions[K];
}
