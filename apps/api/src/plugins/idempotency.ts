import { IDEMPOTENT_REPLAYED_HEADER, IdempotencyHeadersSchema } from '@flotte/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { runWithCommitMark } from '../db/scope.js';
import { ConflictError } from '../errors.js';
import { errorResponses } from '../lib/route-schemas.js';
import { addRouteHook, methodsOf } from '../lib/route-options.js';
import {
  ANSWER_LOST_MESSAGE,
  BodyDigest,
  claimKey,
  drainBody,
  endLeasesOfDeadProcess,
  extendLease,
  idempotencyKeyOf,
  IDEMPOTENCY_LEASE_MS,
  IdempotencyInFlightError,
  IdempotencyKeyReusedError,
  type KeyScope,
  markEffect,
  multipartBoundary,
  releaseKey,
  requestFingerprint,
  storeAnswer,
  tapRequestBody,
} from '../lib/idempotency.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route honours an `Idempotency-Key` header (plugins/idempotency.ts, decision 050): a
     * retry with the same key gets the first success's answer replayed, and nothing is done twice.
     * For organization-scoped routes that create or apply something.
     */
    idempotent?: boolean;
  }
}

/** A keyed request's state, from its body's first byte to its answer. */
type Keyed = {
  digest: BodyDigest;
  scope?: KeyScope;
  claim?: string;
  /** Its answer stored, or replayed from the store: nothing to give back. */
  settled?: boolean;
  heartbeat?: NodeJS.Timeout;
};
const keyed = new WeakMap<FastifyRequest, Keyed>();

async function fingerprintOf(request: FastifyRequest, state: Keyed): Promise<string> {
  const body = await drainBody(request.raw, state.digest);
  return requestFingerprint(request.method, request.url, request.headers['content-type'], body);
}

/**
 * The routes declaring `config.idempotent` honour the Idempotency-Key header (decision 050):
 * - the header joins the route's schema (validated, 400 in French; in the OpenAPI document);
 * - from its first byte, the body's digest is computed as the route reads it;
 * - before the handler, the key (the caller's organization, user and route) is taken, or its
 *   stored answer replayed (`Idempotent-Replayed: true`) when the fingerprint is the same
 *   (otherwise 422), or refused while its first request runs (409, Retry-After);
 * - the first tenant transaction the handler commits marks the key in that same transaction;
 * - a 2xx answer is stored before it is sent; any other gives the key back.
 * Without the header, nothing of this runs.
 */
export function registerIdempotency(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const access = route.config.access;
    if (!access || access.roles === 'public' || access.scope !== 'organization') {
      throw new Error(`${String(route.method)} ${route.url} : config.idempotent ne vaut que pour une route d’une organisation (plugins/idempotency.ts)`);
    }
    if (route.schema?.headers) throw new Error(`${String(route.method)} ${route.url} : config.idempotent déclare lui-même les en-têtes de la route`);
    route.schema = { ...route.schema, headers: IdempotencyHeadersSchema, response: { ...errorResponses(409, 422), ...(route.schema?.response as object | undefined) } };
    const routeName = `${methodsOf(route).join(',')} ${route.url}`;

    addRouteHook(route, 'preParsing', async (request: FastifyRequest, _reply: FastifyReply, payload) => {
      if (idempotencyKeyOf(request) === undefined) return payload;
      const digest = new BodyDigest(multipartBoundary(request.headers['content-type']));
      tapRequestBody(request.raw, digest);
      keyed.set(request, { digest });
      return payload;
    });

    addRouteHook(route, 'preHandler', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const state = keyed.get(request);
      const key = idempotencyKeyOf(request);
      const organizationUuid = request.ctx?.organizationUuid;
      // Without a current organization the handler refuses (403): there is no key to hold.
      if (!state || key === undefined || !request.ctx || !organizationUuid) return done();
      const scope: KeyScope = { organizationUuid, userUuid: request.ctx.userUuid, route: routeName, key };
      state.scope = scope;
      claimKey(app.db, scope).then(
        async (claim) => {
          if (claim.kind === 'inFlight') return done(new IdempotencyInFlightError(claim.retryAfterSeconds));
          if (claim.kind === 'lost') return done(new ConflictError(ANSWER_LOST_MESSAGE));
          if (claim.kind === 'done') {
            state.settled = true;
            if (claim.fingerprint !== (await fingerprintOf(request, state))) return done(new IdempotencyKeyReusedError());
            request.log.info({ idempotencyKey: true }, 'Idempotency-Key : réponse rejouée');
            void reply
              .code(claim.answer.statusCode)
              .header(IDEMPOTENT_REPLAYED_HEADER, 'true')
              .header('content-type', claim.answer.contentType ?? 'application/json; charset=utf-8')
              .send(claim.answer.body);
            return;
          }
          state.claim = claim.claim;
          state.heartbeat = setInterval(() => {
            extendLease(app.db, scope, claim.claim).catch((error: unknown) => request.log.warn({ err: error }, 'Idempotency-Key : bail non prolongé'));
          }, IDEMPOTENCY_LEASE_MS / 3);
          state.heartbeat.unref();
          runWithCommitMark(organizationUuid, (tx) => markEffect(tx, scope, claim.claim), done);
        },
        (error: unknown) => done(error as Error),
      );
    });

    addRouteHook(route, 'onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const state = keyed.get(request);
      if (!state?.scope || !state.claim || state.settled) return payload;
      if (reply.statusCode < 200 || reply.statusCode >= 300 || typeof payload !== 'string') return payload;
      const fingerprint = await fingerprintOf(request, state);
      const contentType = reply.getHeader('content-type');
      state.settled = await storeAnswer(app.db, state.scope, state.claim, fingerprint, {
        statusCode: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: payload,
      });
      return payload;
    });

    addRouteHook(route, 'onResponse', async (request: FastifyRequest) => {
      const state = keyed.get(request);
      if (!state) return;
      keyed.delete(request);
      if (state.heartbeat) clearInterval(state.heartbeat);
      if (state.scope && state.claim && !state.settled) {
        await releaseKey(app.db, state.scope, state.claim).catch((error: unknown) => request.log.warn({ err: error }, 'Idempotency-Key : clé non rendue (son bail expirera)'));
      }
    });
  });

  // The embedded database's folder is this process's alone: a lease still running is a killed one's.
  app.addHook('onReady', async () => {
    if (app.databaseKind !== 'pglite') return;
    const ended = await endLeasesOfDeadProcess(app.db);
    if (ended > 0) app.log.warn({ ended }, 'Idempotency-Key : demandes interrompues par un arrêt brutal, clés libérées');
  });
}
