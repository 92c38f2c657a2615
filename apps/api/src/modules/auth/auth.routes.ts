import {
  ChangePasswordBodySchema,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  LoginBodySchema,
  LoginResponseSchema,
  RecoveryPasswordBodySchema,
  RecoveryRequestBodySchema,
  RecoveryRequestResponseSchema,
  RecoveryTokenBodySchema,
  RecoveryTokenResponseSchema,
  RefreshResponseSchema,
  UserSchema,
} from '@flotte/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ForbiddenError } from '../../errors.js';
import { errorResponses } from '../../lib/route-schemas.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import * as usersService from '../users/users.service.js';
import type { AuthService } from './auth.service.js';
import type { RecoveryService } from './recovery.service.js';

export const REFRESH_COOKIE = 'flotte_refresh';
const COOKIE_PATH = '/api/auth';

export type AuthRoutesOptions = { auth: AuthService; recovery: RecoveryService; publicUrl: string | undefined };

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, recovery, publicUrl }) => {
  const tags = ['Authentification'];

  const isHttps = (request: FastifyRequest) => request.protocol === 'https' || Boolean(publicUrl?.startsWith('https:'));

  function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date) {
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: isHttps(request),
      path: COOKIE_PATH,
      expires,
    });
  }

  /** A cross-site page may not log in nor use the session cookie: the Origin, when sent, must be ours. */
  function assertSameOrigin(request: FastifyRequest) {
    const origin = request.headers.origin;
    if (!origin) return;
    const allowed = new Set([`${request.protocol}://${request.host}`]);
    if (publicUrl) allowed.add(new URL(publicUrl).origin);
    if (!allowed.has(origin)) throw new ForbiddenError('Requête refusée : origine non autorisée');
  }

  /** Cookie-authenticated calls also need the custom header, which a cross-site form cannot set. */
  function assertSameSite(request: FastifyRequest) {
    assertSameOrigin(request);
    if (request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) {
      throw new ForbiddenError('Requête refusée : en-tête de sécurité manquant');
    }
  }

  app.post(
    '/auth/login',
    {
      schema: {
        tags,
        summary: 'Connexion par e-mail et mot de passe',
        security: [],
        body: LoginBodySchema,
        response: { 200: LoginResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      const session = await auth.login(request.body, request.ip);
      setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt);
      return { tokens: session.tokens, user: session.user };
    },
  );

  app.post(
    '/auth/refresh-token',
    {
      schema: {
        tags,
        summary: "Nouveau jeton d'accès depuis le cookie de session (rotation)",
        security: [],
        response: { 200: RefreshResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      assertSameSite(request);
      try {
        const session = await auth.refresh(request.cookies[REFRESH_COOKIE]);
        setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt);
        return { tokens: session.tokens };
      } catch (error) {
        reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
        throw error;
      }
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags,
        summary: 'Déconnexion : révoque la session et efface le cookie',
        security: [],
        response: { 204: z.null(), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      assertSameSite(request);
      await auth.logout(request.cookies[REFRESH_COOKIE]);
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      return reply.status(204).send(null);
    },
  );

  // Account recovery (issue 15): /recover/email → e-mail → /recover/password → /recover/confirmation.
  app.post(
    '/auth/recover',
    {
      schema: {
        tags,
        summary: 'Mot de passe oublié : envoie un lien valable 1 heure à l’adresse, si elle a un compte (même réponse sinon)',
        description: '5 demandes au plus par 30 minutes, par adresse e-mail et par adresse IP (429 au-delà).',
        security: [],
        body: RecoveryRequestBodySchema,
        response: { 202: RecoveryRequestResponseSchema, ...errorResponses(400, 403, 429) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      const answer = await recovery.request(request.body.email, request.ip, mailBaseUrl(publicUrl, request));
      return reply.status(202).send(answer);
    },
  );

  app.post(
    '/auth/recover/check',
    {
      schema: {
        tags,
        summary: 'Vérifie qu’un lien de réinitialisation est encore valable (adresse masquée, échéance)',
        security: [],
        body: RecoveryTokenBodySchema,
        response: { 200: RecoveryTokenResponseSchema, ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      assertSameOrigin(request);
      return recovery.check(request.body.token);
    },
  );

  app.post(
    '/auth/recover/password',
    {
      schema: {
        tags,
        summary: 'Choisit un nouveau mot de passe avec le lien reçu : le lien ne sert qu’une fois, toutes les sessions du compte prennent fin',
        security: [],
        body: RecoveryPasswordBodySchema,
        response: { 204: z.null().meta({ description: 'Mot de passe changé' }), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      await recovery.reset(request.body);
      return reply.status(204).send(null);
    },
  );

  app.register(async (protectedScope) => {
    protectedScope.addHook('onRequest', app.authenticate);
    protectedScope.get(
      '/auth/me',
      {
        schema: {
          tags,
          summary: "L'utilisateur connecté",
          response: { 200: UserSchema, ...errorResponses(401) },
        },
      },
      (request) => usersService.getProfile(app.db, request.ctx.userUuid),
    );
    protectedScope.withTypeProvider<ZodTypeProvider>().post(
      '/auth/password',
      {
        schema: {
          tags,
          summary: 'Change son mot de passe : toutes ses sessions prennent fin, celle-ci est remplacée par une nouvelle',
          body: ChangePasswordBodySchema,
          response: { 200: RefreshResponseSchema, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (request, reply) => {
        assertSameSite(request);
        const session = await auth.changePassword(request.ctx, request.body, request.ip);
        setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt);
        return { tokens: session.tokens };
      },
    );
  });
};
