import { AccountSessionListSchema, UuidParamsSchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import type { Clock } from '../../lib/tokens.js';
import { COOKIE_PATH, REFRESH_COOKIE } from './session-http.js';
import * as sessions from './sessions.service.js';
import { EVERY_ROLE } from '../../plugins/route-access.js';

export type SessionsRoutesOptions = {
  /** Sessions ended: the cached contexts of this process must go. */
  onSessionsEnded: () => void;
  /** The clock the sessions' lifetimes are counted by (the auth service's). */
  now: Clock;
};

/** The caller's sessions on /account (decision 036): listed, ended one by one, or all at once. */
export const sessionsRoutes: FastifyPluginAsyncZod<SessionsRoutesOptions> = async (app, { onSessionsEnded, now }) => {
  const tags = ['Authentification'];

  app.get(
    '/auth/sessions',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Ses sessions ouvertes : appareil, ouverture, dernière utilisation, celle de cet appareil',
        response: { 200: AccountSessionListSchema, ...errorResponses(401) },
      },
    },
    (request) => sessions.listSessions(app.db, request.ctx, now),
  );

  app.delete(
    '/auth/sessions/:uuid',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Termine une de ses sessions (l’appareil concerné devra se reconnecter)',
        params: UuidParamsSchema,
        response: { 204: z.null().meta({ description: 'Session terminée' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await sessions.revokeSession(app.db, request.ctx, request.params.uuid, now);
      onSessionsEnded();
      if (request.params.uuid === request.ctx.sessionUuid) reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/auth/sessions',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Se déconnecter partout : termine toutes ses sessions, celle-ci comprise',
        response: { 204: z.null().meta({ description: 'Toutes les sessions sont terminées' }), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await sessions.revokeAllSessions(app.db, request.ctx);
      onSessionsEnded();
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      return reply.status(204).send(null);
    },
  );
};
