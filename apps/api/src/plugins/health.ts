import type { FastifyPluginAsync } from 'fastify';
import { PUBLIC_ACCESS } from './route-access.js';
import { ServiceUnavailableError } from '../errors.js';

/**
 * Probes for load balancers and orchestrators (README « Plusieurs processus »), public and cheap:
 * - `GET /api/health`: the process is up and serves HTTP (liveness). Touches nothing else, so a
 *   database outage never gets a healthy process restarted.
 * - `GET /api/ready`: every readiness check passes (the database answers, and whatever else the
 *   app registers: Redis when it holds the limits, the job queue…) — otherwise 503 with
 *   Retry-After, the error envelope and which check failed, so the balancer sends traffic elsewhere.
 */

/** One thing the instance needs to serve. Not ready when `check` throws, returns false, or takes longer than the timeout. */
export type ReadinessCheck = {
  /** Shown in the answer: database, redis, queue… */
  name: string;
  check: () => Promise<boolean | void> | boolean | void;
};

/** The longest a check may take: beyond it, the check has failed. */
export const READINESS_CHECK_TIMEOUT_MS = 2_500;
const RETRY_AFTER_SECONDS = 5;
export const NOT_READY_MESSAGE = "Le service n'est pas prêt : une ressource dont il dépend ne répond pas.";

class CheckTimeout extends Error {}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      Promise.resolve().then(check.check),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckTimeout()), timeoutMs);
      }),
    ]);
    return outcome === false ? 'ne répond pas' : null;
  } catch (error) {
    return error instanceof CheckTimeout ? `aucune réponse en ${timeoutMs / 1000} s` : 'ne répond pas';
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsync<{ checks: readonly ReadinessCheck[]; timeoutMs?: number }> = async (app, { checks, timeoutMs = READINESS_CHECK_TIMEOUT_MS }) => {
  // Probes arriving together share one run of the checks: the database sees one SELECT, not one per probe.
  let running: Promise<{ name: string; problem: string | null }[]> | undefined;
  const runAll = () => {
    running ??= Promise.all(checks.map(async (check) => ({ name: check.name, problem: await runCheck(check, timeoutMs) }))).finally(() => {
      running = undefined;
    });
    return running;
  };

  app.get('/health', { config: { access: PUBLIC_ACCESS }, schema: { hide: true } }, () => ({ status: 'ok' }));

  app.get('/ready', { config: { access: PUBLIC_ACCESS }, schema: { hide: true } }, async (request) => {
    const results = await runAll();
    const failing = results.filter((result) => result.problem !== null);
    if (failing.length > 0) {
      request.log.warn({ failing: failing.map((result) => result.name) }, 'not ready');
      throw new ServiceUnavailableError(
        RETRY_AFTER_SECONDS,
        NOT_READY_MESSAGE,
        failing.map((result) => ({ path: result.name, message: result.problem! })),
      );
    }
    return { status: 'ok', checks: Object.fromEntries(results.map((result) => [result.name, 'ok'])) };
  });
};
