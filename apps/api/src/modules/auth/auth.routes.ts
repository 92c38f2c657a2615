import {
  ChangePasswordBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  LoginTotpBodySchema,
  LoginTotpResponseSchema,
  LoginTotpSetupBodySchema,
  TotpSetupSchema,
  RecoveryPasswordBodySchema,
  RecoveryRequestBodySchema,
  RecoveryRequestResponseSchema,
  RecoveryTokenBodySchema,
  RecoveryTokenResponseSchema,
  RefreshResponseSchema,
  UserSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import * as usersService from '../users/users.service.js';
import type { AuthService } from './auth.service.js';
import type { RecoveryService } from './recovery.service.js';
import { COOKIE_PATH, REFRESH_COOKIE, sessionHttp } from './session-http.js';
import { totpRoutes } from './totp.routes.js';
import type { TotpService } from './totp.service.js';
import { EVERY_ROLE, PUBLIC_ACCESS } from '../../plugins/route-access.js';

export { REFRESH_COOKIE } from './session-http.js';
/** A browser remembered for two-factor sign-in (decision 035). */
export const DEVICE_COOKIE = 'flotte_device';

export type AuthRoutesOptions = { auth: AuthService; recovery: RecoveryService; totp: TotpService; publicUrl: string | undefined };

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, recovery, totp, publicUrl }) => {
  const tags = ['Authentification'];

  const { setRefreshCookie, assertSameOrigin, assertSameSite } = sessionHttp(publicUrl);

  app.post(
    '/auth/login',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Connexion par e-mail et mot de passe',
        description:
          'Donne la session, ou, pour un compte à double authentification (hors appareil mémorisé), un défi `challenge` valable 5 minutes (15 pour une configuration) : ' +
          '`mode: code` (POST /api/auth/login/totp avec un code), `mode: setup` (un superadministrateur dont l’espace l’exige la configure d’abord).',
        security: [],
        body: LoginBodySchema,
        response: { 200: LoginResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      const result = await auth.login(request.body, request.ip, request.headers['user-agent'] ?? null, request.cookies[DEVICE_COOKIE]);
      if ('challenge' in result) return result;
      setRefreshCookie(request, reply, result.refreshToken, result.refreshExpiresAt);
      return { tokens: result.tokens, user: result.user };
    },
  );

  // Two-factor sign-in (decision 035): the login's second step.
  app.post(
    '/auth/login/totp/setup',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Connexion, défi « setup » : la clé TOTP à scanner (QR code SVG et texte)',
        security: [],
        body: LoginTotpSetupBodySchema,
        response: { 200: TotpSetupSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      assertSameOrigin(request);
      return totp.setupForChallenge(request.body.challenge);
    },
  );

  app.post(
    '/auth/login/totp',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Connexion, seconde étape : le défi et un code (ou un code de secours) donnent la session',
        description:
          'Un code faux compte comme un mot de passe faux dans les limites de connexion (429 au-delà). `rememberDevice` : ce navigateur ne demande plus de code pendant 30 jours. ' +
          'Au bout d’un défi « setup », `recoveryCodes` donne les dix codes de secours, une seule fois.',
        security: [],
        body: LoginTotpBodySchema,
        response: { 200: LoginTotpResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      const result = await auth.loginWithTotp(request.body, request.ip, request.headers['user-agent'] ?? null);
      setRefreshCookie(request, reply, result.refreshToken, result.refreshExpiresAt);
      // The remembered browser's cookie: the same guards as the session's.
      if (result.device) setRefreshCookie(request, reply, result.device.token, result.device.expiresAt, DEVICE_COOKIE);
      return { tokens: result.tokens, user: result.user, ...(result.recoveryCodes ? { recoveryCodes: result.recoveryCodes } : {}) };
    },
  );

  app.post(
    '/auth/refresh-token',
    {
      config: { access: PUBLIC_ACCESS },
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
      config: { access: PUBLIC_ACCESS },
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
      config: { access: PUBLIC_ACCESS },
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
      config: { access: PUBLIC_ACCESS },
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
      config: { access: PUBLIC_ACCESS },
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
    await protectedScope.register(totpRoutes, { auth, totp });
    protectedScope.get(
      '/auth/me',
      {
        config: { access: { roles: EVERY_ROLE, scope: 'self' } },
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
        config: { access: { roles: EVERY_ROLE, scope: 'self' } },
        schema: {
          tags,
          summary: 'Change son mot de passe : toutes ses sessions prennent fin, celle-ci est remplacée par une nouvelle',
          body: ChangePasswordBodySchema,
          response: { 200: RefreshResponseSchema, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (request, reply) => {
        assertSameSite(request);
        const session = await auth.changePassword(request.ctx, request.body, request.ip, request.headers['user-agent'] ?? null);
        setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt);
        return { tokens: session.tokens };
      },
    );
  });
};
