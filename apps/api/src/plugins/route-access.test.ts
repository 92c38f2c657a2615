import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandlers } from './error-handler.js';
import { accessProblem, EVERY_ROLE, PUBLIC_ACCESS, PUBLIC_ROUTES, registerRouteAccess } from './route-access.js';

/**
 * Issue 20, point 1: every route under /api declares its roles and scope, and only the routes of
 * PUBLIC_ROUTES are public. The real app builds (every other test file starts it); these show that
 * a route breaking the rule stops the start-up, with its name.
 */

function bareApp() {
  const app = Fastify({ logger: false });
  registerRouteAccess(app);
  registerErrorHandlers(app);
  return app;
}

/** Every listed public route, declared public: what the real app registers besides its protected calls. */
function registerListedPublicRoutes(app: FastifyInstance) {
  for (const key of Object.keys(PUBLIC_ROUTES)) {
    const [method, url] = key.split(' ') as [string, string];
    app.route({ method: method as 'GET', url, config: { access: PUBLIC_ACCESS }, schema: { hide: true }, handler: () => ({ ok: true }) });
  }
}

describe('route inventory (issue 20, point 1)', () => {
  it('refuses to register a route under /api without its access', () => {
    const app = bareApp();
    expect(() => app.get('/api/driver', () => [])).toThrow('Déclaration d’accès : GET /api/driver : config.access manquant');
  });

  it('refuses a public route that PUBLIC_ROUTES does not list, and a listed one declared for roles', () => {
    const app = bareApp();
    expect(() => app.get('/api/vehicule', { config: { access: PUBLIC_ACCESS } }, () => [])).toThrow(
      'GET /api/vehicule : déclarée publique sans figurer dans PUBLIC_ROUTES',
    );
    expect(() => app.post('/api/auth/login', { config: { access: { roles: EVERY_ROLE, scope: 'self' } } }, () => ({}))).toThrow(
      'POST /api/auth/login : listée dans PUBLIC_ROUTES mais déclarée pour des rôles',
    );
  });

  it('wants a documented public route to say `security: []` in the OpenAPI document', () => {
    expect(accessProblem({ method: 'POST', url: '/api/auth/signup', config: { access: PUBLIC_ACCESS }, schema: { summary: 'x' } as never })).toMatch(
      /security: \[\]/,
    );
    expect(accessProblem({ method: 'POST', url: '/api/auth/signup', config: { access: PUBLIC_ACCESS }, schema: { security: [] } as never })).toBeNull();
  });

  it('fails the start-up when a listed public route is missing', async () => {
    const app = bareApp();
    app.get('/api/health', { config: { access: PUBLIC_ACCESS } }, () => ({ status: 'ok' }));
    await expect(app.ready()).rejects.toThrow(/Routes publiques listées mais non enregistrées comme publiques : GET \/api\/ready, /);
  });

  it('leaves the web app, /metrics and /api/docs undeclared, and starts with every public route listed', async () => {
    const app = bareApp();
    registerListedPublicRoutes(app);
    app.get('/*', () => 'page');
    app.get('/metrics', () => 'metrics');
    app.get('/api/docs/json', () => ({}));
    await expect(app.ready()).resolves.toBeDefined();
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/api/health' })).statusCode).toBe(200);
    await app.close();
  });

  it('answers 401 on a route declared for roles whose scope forgot the authentication', async () => {
    const app = bareApp();
    registerListedPublicRoutes(app);
    app.get('/api/forgotten', { config: { access: { roles: EVERY_ROLE, scope: 'organization' } } }, () => ({ secret: true }));
    await app.ready();
    const response = await app.inject({ method: 'GET', url: '/api/forgotten' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, message: 'Authentification requise' });
    await app.close();
  });
});
