import {
  LoginSessionSchema,
  SignupBodySchema,
  SignupConfirmBodySchema,
  SignupResendBodySchema,
  SignupResponseSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import type { AuthService } from './auth.service.js';
import { sessionHttp } from './session-http.js';
import type { SignupService } from './signup.service.js';
import { PUBLIC_ACCESS } from '../../plugins/route-access.js';

export type SignupRoutesOptions = { signup: SignupService; auth: AuthService; publicUrl: string | undefined };

/** Signup and e-mail confirmation (issue 15, decision 033): /signup → e-mail → /signup/confirmation?token=… → /onboarding. */
export const signupRoutes: FastifyPluginAsyncZod<SignupRoutesOptions> = async (app, { signup, auth, publicUrl }) => {
  const tags = ['Authentification'];
  const { setRefreshCookie, assertSameOrigin } = sessionHttp(publicUrl);
  const limits = '3 demandes au plus par 30 minutes pour une adresse e-mail (inscription et renvois comptés ensemble), 10 par adresse IP (429 au-delà).';

  app.post(
    '/auth/signup',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Crée un compte, à confirmer par le lien envoyé à l’adresse (valable 24 heures) ; même réponse si l’adresse a déjà un compte',
        description: `L’adresse déjà inscrite reçoit un e-mail le signalant, aucun compte n’est créé. ${limits}`,
        security: [],
        body: SignupBodySchema,
        response: { 202: SignupResponseSchema, ...errorResponses(400, 403, 429) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      return reply.status(202).send(await signup.signup(request.body, request.ip, mailBaseUrl(publicUrl, request)));
    },
  );

  app.post(
    '/auth/signup/resend',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Renvoie un lien de confirmation à un compte pas encore confirmé (même réponse pour toute adresse)',
        description: limits,
        security: [],
        body: SignupResendBodySchema,
        response: { 202: SignupResponseSchema, ...errorResponses(400, 403, 429) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      return reply.status(202).send(await signup.resend(request.body.email, request.ip, mailBaseUrl(publicUrl, request)));
    },
  );

  app.post(
    '/auth/signup/confirm',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Confirme l’adresse avec le lien reçu (une seule fois) et ouvre une session, comme la connexion',
        security: [],
        body: SignupConfirmBodySchema,
        response: { 200: LoginSessionSchema, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      const userUuid = await signup.confirm(request.body.token);
      const session = await auth.signInByLink(userUuid, request.headers['user-agent'] ?? null, 'confirmation-link');
      setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt);
      return { tokens: session.tokens, user: session.user };
    },
  );
};
