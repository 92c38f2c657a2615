import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import { type LoginLimits } from '../../lib/login-limits.js';
import type { Metrics } from './metrics.js';

/** The label of every request no route matched (the 404 handler). */
export const UNMATCHED_ROUTE = 'unmatched';

export const METRICS_UNAUTHORIZED_MESSAGE = 'Jeton de métriques absent ou invalide';
const TOO_MANY_MESSAGE = (seconds: number) => `Trop de tentatives depuis cette adresse. Réessayez dans ${seconds} secondes.`;

/** SHA-256 first: timingSafeEqual needs equal lengths, and the digest hides the token's length too. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The HTTP side of the metrics (decision 045): every answer counted under its route's template
 * (`/api/driver/:uuid`, never the URL a client wrote), and `GET /metrics` on the same port for
 * Prometheus, with `Authorization: Bearer <METRICS_TOKEN>`. A wrong or missing token is refused
 * 401 and counted against the address as a failed login is (lib/login-limits.ts): an address over
 * its limit is refused 429 before its token is even compared.
 */
export function registerMetrics(app: FastifyInstance, options: { metrics: Metrics; token: string; limits: LoginLimits }) {
  const { metrics, limits } = options;
  const expected = digest(options.token);

  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const wait = await limits.addressRetryAfter(request.ip);
    if (wait > 0) throw new TooManyRequestsError(TOO_MANY_MESSAGE(wait), wait);
    const [scheme, presented] = (request.headers.authorization ?? '').split(' ', 2);
    if (scheme?.toLowerCase() !== 'bearer' || !presented || !timingSafeEqual(digest(presented), expected)) {
      await limits.recordAddressFailure(request.ip);
      void reply.header('www-authenticate', 'Bearer');
      throw new UnauthorizedError(METRICS_UNAUTHORIZED_MESSAGE);
    }
    const body = await metrics.render();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(body);
  });
}

/**
 * Without METRICS_TOKEN the metrics are off: /metrics is the 404 of any unknown URL, not the web
 * app's page that the SPA fallback (plugins/web.ts) would answer to it.
 */
export function registerMetricsOff(app: FastifyInstance) {
  app.get('/metrics', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());
}
