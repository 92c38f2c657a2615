import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { UnauthorizedError } from '../errors.js';
import type { AuthContext } from '../lib/auth-context.js';
import { ContextCache } from '../lib/context-cache.js';
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

export const authenticatePlugin = fp<{ tokens: AccessTokens; contextTtlMs: number }>(
  async (app, { tokens, contextTtlMs }) => {
    const contexts = new ContextCache(contextTtlMs);
    app.decorateRequest('ctx', null as unknown as AuthContext);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new UnauthorizedError('Authentification requise');
      const userUuid = await tokens.verify(token);
      if (!userUuid) throw new UnauthorizedError('Session expirée ou jeton invalide');
      // A write always checks the caller's roles and organization as they are now.
      const ctx = READ_METHODS.has(request.method)
        ? (contexts.get(userUuid) ?? (await contexts.load(userUuid, () => loadContext(app.db, userUuid))))
        : await loadContext(app.db, userUuid);
      if (!ctx) throw new UnauthorizedError('Session expirée ou jeton invalide');
      request.ctx = ctx;
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
