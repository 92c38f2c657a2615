import type { Role } from '@flotte/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { UnauthorizedError } from '../errors.js';
import { addRouteHook, methodsOf } from '../lib/route-options.js';

/**
 * Who may call a route and whose data it works on, declared in the route's own options
 * (`config: { access: … }`, decision 048). Every route under /api declares it; the start-up fails
 * otherwise, and a public route must be one of PUBLIC_ROUTES below.
 *
 * - roles: the roles (auth-context's effective roles: USER, ADMIN of the current organization,
 *   SUPERADMIN, ROOT) for whom the route may succeed; the services keep their finer rules
 *   (« own record », « an environment they manage », « current organization chosen »…).
 * - scope: `organization` (the caller's current organization, under row-level security),
 *   `environment` (a broker's environment: its superadmins and ROOT), `platform` (across every
 *   environment), `self` (the caller's own account, sessions and links).
 */
export type RouteAccess =
  | { readonly roles: 'public'; readonly scope: 'public' }
  | { readonly roles: readonly [Role, ...Role[]]; readonly scope: RouteScope };
export type RouteScope = 'organization' | 'environment' | 'platform' | 'self';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route under /api (plugins/route-access.ts). */
    access?: RouteAccess;
  }
}

/** Anyone signed in: a plain member, an organization's administrator, a broker, the operator. */
export const EVERY_ROLE = ['USER', 'ADMIN', 'SUPERADMIN', 'ROOT'] as const satisfies readonly Role[];
/** An organization's administrators: its ADMIN, and the brokers and operator who manage it. */
export const ADMINS = ['ADMIN', 'SUPERADMIN', 'ROOT'] as const satisfies readonly Role[];
/** A broker's environment: its superadmins and the operator. */
export const BROKERS = ['SUPERADMIN', 'ROOT'] as const satisfies readonly Role[];
/** The platform's operator alone. */
export const OPERATOR = ['ROOT'] as const satisfies readonly Role[];

export const PUBLIC_ACCESS: RouteAccess = { roles: 'public', scope: 'public' };

/**
 * The only routes anyone may call without a session, each with the reason it has none. A route
 * declared public that is not here, or one listed here that is not declared public (or not
 * registered), fails the start-up.
 */
export const PUBLIC_ROUTES: Readonly<Record<string, string>> = {
  'GET /api/health': 'health: the process answers',
  'GET /api/ready': 'readiness: the database and queue answer',
  'POST /api/auth/login': 'login',
  'POST /api/auth/login/totp': 'login, second step (two-factor code)',
  'POST /api/auth/login/totp/setup': 'login, second step (two-factor set-up)',
  'POST /api/auth/refresh-token': 'refresh: the session cookie gives an access token',
  'POST /api/auth/logout': 'refresh: the session cookie ends (the access token may have expired)',
  'POST /api/auth/signup': 'signup',
  'POST /api/auth/signup/resend': 'signup: a new confirmation link',
  'POST /api/auth/signup/confirm': 'signup: the confirmation link',
  'POST /api/auth/recover': 'recovery: asking for a link',
  'POST /api/auth/recover/check': 'recovery: the link still serves',
  'POST /api/auth/recover/password': 'recovery: the new password',
  'POST /api/invitation/check': 'invitation acceptance: what the link shows',
  'POST /api/invitation/accept': 'invitation acceptance by a new account',
  'POST /api/survey-response/open': 'public survey answers: the questions',
  'POST /api/survey-response': 'public survey answers',
  'POST /api/stripe/webhook': 'payment webhook (signed by Stripe)',
  // Images an <img> shows, which cannot send a bearer (decisions 036, 042): at a random version
  // only their owner's profile gives, and only the version in force.
  'GET /api/user/:uuid/avatar/:version': 'image: an avatar at its versioned address',
  'GET /api/organization/:uuid/logo/:version': 'image: an organization logo at its versioned address',
  'GET /api/environment/:uuid/logo/:version': 'image: an environment logo at its versioned address',
};

/**
 * Routes that declare nothing, by prefix: they are not the API's calls. Anything else outside
 * /api is the built web app (its files and pages, public, no data).
 */
export const UNDECLARED_PREFIXES: Readonly<Record<string, string>> = {
  '/api/docs': 'the OpenAPI document and its viewer (@fastify/swagger-ui), public: the API’s description, no data',
};

function undeclaredReason(url: string): string | null {
  for (const [prefix, reason] of Object.entries(UNDECLARED_PREFIXES)) if (url === prefix || url.startsWith(`${prefix}/`)) return reason;
  // /metrics checks its own token (METRICS_TOKEN, decision 045); the web app's files and pages.
  if (url !== '/api' && !url.startsWith('/api/')) return url === '/metrics' ? 'metrics, behind METRICS_TOKEN' : 'the web app';
  return null;
}

/** The key of PUBLIC_ROUTES and of the role matrix: a HEAD Fastify adds to a GET is that GET. */
export const routeKey = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;

/** Why a route cannot be registered as declared, or null. */
export function accessProblem(route: Pick<RouteOptions, 'method' | 'url' | 'config' | 'schema'>): string | null {
  const methods = methodsOf(route);
  const keys = methods.map((method) => routeKey(method, route.url));
  const access = route.config?.access;
  if (undeclaredReason(route.url)) return null;
  if (!access) return `${keys.join(', ')} : config.access manquant (rôles et périmètre, plugins/route-access.ts)`;
  const listed = keys.filter((key) => key in PUBLIC_ROUTES);
  if (access.roles === 'public') {
    if (listed.length !== keys.length) return `${keys.join(', ')} : déclarée publique sans figurer dans PUBLIC_ROUTES`;
    if (route.schema && !route.schema.hide && !Array.isArray((route.schema as { security?: unknown }).security)) {
      return `${keys.join(', ')} : publique, son schéma OpenAPI doit dire \`security: []\``;
    }
    return null;
  }
  if (listed.length > 0) return `${listed.join(', ')} : listée dans PUBLIC_ROUTES mais déclarée pour des rôles`;
  if (access.roles.length === 0) return `${keys.join(', ')} : aucun rôle déclaré`;
  return null;
}

export type DeclaredRoute = Readonly<{ method: string; url: string; access: RouteAccess }>;
const inventories = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every route of the app that declared its access, as registered (HEAD routes Fastify adds to a GET included). */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return inventories.get(app) ?? [];
}

/**
 * Every route under /api declares its access (`onRoute`: a route without it fails the
 * registration, so the start-up), and every route listed public is registered and public (checked
 * when the app is ready). A route declaring roles refuses a request without a caller (401):
 * forgetting the authentication of its scope cannot open it.
 */
export function registerRouteAccess(app: FastifyInstance) {
  const publicSeen = new Set<string>();
  const inventory: DeclaredRoute[] = [];
  inventories.set(app, inventory);
  app.addHook('onRoute', (route) => {
    const problem = accessProblem(route);
    if (problem) throw new Error(`Déclaration d’accès : ${problem}`);
    const access = route.config?.access;
    if (!access) return;
    for (const method of methodsOf(route)) inventory.push({ method, url: route.url, access });
    if (access.roles === 'public') {
      for (const method of methodsOf(route)) publicSeen.add(routeKey(method, route.url));
      return;
    }
    addRouteHook(route, 'preHandler', requireCaller, 'first');
  });
  app.addHook('onReady', async () => {
    const missing = Object.keys(PUBLIC_ROUTES).filter((key) => !publicSeen.has(key));
    if (missing.length > 0) throw new Error(`Routes publiques listées mais non enregistrées comme publiques : ${missing.join(', ')}`);
  });
}

async function requireCaller(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.ctx) throw new UnauthorizedError();
}
