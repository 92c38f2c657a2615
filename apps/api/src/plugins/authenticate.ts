import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { UnauthorizedError } from '../errors.js';
import type { AuthContext } from '../lib/auth-context.js';
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

export const authenticatePlugin = fp<{ tokens: AccessTokens }>(
  async (app, { tokens }) => {
    app.decorateRequest('ctx', null as unknown as AuthContext);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new UnauthorizedError('Authentification requise');
      const userUuid = await tokens.verify(token);
      if (!userUuid) throw new UnauthorizedError('Session expirée ou jeton invalide');
      const ctx = await loadContext(app.db, userUuid);
      if (!ctx) throw new UnauthorizedError('Session expirée ou jeton invalide');
      request.ctx = ctx;
    });
  },
  { name: 'authenticate' },
);
