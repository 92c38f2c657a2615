import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { actingRole, runAsActor } from '../db/actor.js';
import { UnauthorizedError } from '../errors.js';
import type { AuthContext } from '../lib/auth-context.js';
import type { ContextCache } from '../lib/context-cache.js';
import type { AccessTokens } from '../lib/tokens.js';
import { loadContext } from '../modules/users/users.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of every protected scope: bearer token → request.ctx. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The caller; set by app.authenticate, so only read it in protected routes. */
    ctx: AuthContext;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const authenticatePlugin = fp<{ tokens: AccessTokens; contexts: ContextCache }>(
  async (app, { tokens, contexts }) => {
    app.decorateRequest('ctx', null as unknown as AuthContext);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new UnauthorizedError('Authentification requise');
      const subject = await tokens.verify(token);
      if (!subject) throw new UnauthorizedError('Session expirée ou jeton invalide');
      // A write always checks the caller's session, roles and organization as they are now.
      // Kept by user and session: a session's id is only ever good for the user it was issued to.
      const key = `${subject.userUuid} ${subject.sessionUuid}`;
      const ctx = READ_METHODS.has(request.method)
        ? (contexts.get(key) ?? (await contexts.load(key, () => loadContext(app.db, subject))))
        : await loadContext(app.db, subject);
      if (!ctx) throw new UnauthorizedError('Session expirée ou jeton invalide');
      request.ctx = ctx;
    });
    // Everything the handler of an authenticated request runs writes as its caller: the write
    // transactions name them to PostgreSQL for the activity log (db/actor.ts, decision 041).
    // Registered here, at the root, so every route's handler runs inside it; the handler is called
    // from `done`, so the actor follows all its work.
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.ctx) runAsActor({ userUuid: request.ctx.userUuid, role: actingRole(request.ctx.roles) }, done);
      else done();
    });
    // A write may change someone's roles, links or current organization (a login too may set the
    // current one): forget every context before answering a successful write, so that the next
    // request of this process reads them again. Refused requests change nothing.
    app.addHook('onSend', async (request, reply, payload) => {
      if (!READ_METHODS.has(request.method) && reply.statusCode < 400) contexts.clear();
      return payload;
    });
  },
  { name: 'authenticate' },
);
