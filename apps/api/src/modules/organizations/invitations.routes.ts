import {
  AcceptInvitationBodySchema,
  CreateInvitationBodySchema,
  InvitationPageSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenBodySchema,
  ListInvitationsQuerySchema,
  LoginSessionSchema,
  UserSchema,
  UuidSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import { sessionHttp } from '../auth/session-http.js';
import type { AuthService } from '../auth/auth.service.js';
import type { InvitationsService } from './invitations.service.js';
import { ADMINS, EVERY_ROLE, PUBLIC_ACCESS } from '../../plugins/route-access.js';

export type InvitationsRoutesOptions = { invitations: InvitationsService; auth: AuthService; publicUrl: string | undefined };

const UuidParamsSchema = z.object({ uuid: UuidSchema });

/**
 * Invitations (decision 034): the administrators' calls on the current organization's pending
 * invitations, and the link's calls (check, accept as a new user, accept once signed in).
 */
export const invitationsRoutes: FastifyPluginAsyncZod<InvitationsRoutesOptions> = async (app, { invitations, auth, publicUrl }) => {
  const tags = ['Organisations'];
  const { setRefreshCookie, assertSameOrigin } = sessionHttp(publicUrl);

  // The link's holder, before any sign-in.
  app.post(
    '/invitation/check',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: "Ce que montre le lien d'invitation : organisation, auteur, adresse invitée, compte existant ou non",
        description: 'Le jeton voyage dans le corps, pas dans l’adresse (hors des journaux d’accès).',
        security: [],
        body: InvitationTokenBodySchema,
        response: { 200: InvitationPreviewSchema, ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      assertSameOrigin(request);
      return invitations.preview(request.body.token);
    },
  );

  app.post(
    '/invitation/accept',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: "Accepte une invitation en créant son compte (adresse de l'invitation, déjà confirmée) et ouvre la session",
        description: "Un lien ne sert qu'une fois, pendant 7 jours ; une adresse qui a déjà un compte : 409 (se connecter pour accepter).",
        security: [],
        body: AcceptInvitationBodySchema,
        response: { 201: LoginSessionSchema, ...errorResponses(400, 403, 409) },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request);
      const userUuid = await invitations.acceptAsNewUser(request.body);
      const session = await auth.signInByLink(userUuid, request.headers['user-agent'] ?? null, 'invitation-link');
      setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt);
      return reply.status(201).send({ tokens: session.tokens, user: session.user });
    },
  );

  await app.register(async (protectedApi) => {
    protectedApi.addHook('onRequest', app.authenticate);
    const api = protectedApi.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/invitation/join',
      {
        config: { access: { roles: EVERY_ROLE, scope: 'self' } },
        schema: {
          tags,
          summary: "Accepte une invitation avec son compte : l'adresse du compte doit être celle de l'invitation ; l'organisation devient la courante",
          body: InvitationTokenBodySchema,
          response: { 200: UserSchema, ...errorResponses(400, 401, 403) },
        },
      },
      (request) => invitations.acceptAsMember(request.ctx, request.body.token),
    );

    api.get(
      '/organization-invitation',
      {
        config: { access: { roles: ADMINS, scope: 'organization' } },
        schema: {
          tags,
          summary: "Invitations en attente de l'organisation courante (administrateur)",
          querystring: ListInvitationsQuerySchema,
          response: { 200: InvitationPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      (request) => invitations.list(request.ctx, request.query),
    );

    api.post(
      '/organization-invitation',
      {
        config: { access: { roles: ADMINS, scope: 'organization' } },
        schema: {
          tags,
          summary: "Invite une adresse e-mail dans l'organisation courante, avec un rôle (administrateur) : un lien valable 7 jours lui est envoyé",
          description: "Un membre actuel : 409. Une invitation en attente de la même adresse est remplacée (son lien ne sert plus).",
          body: CreateInvitationBodySchema,
          response: { 201: InvitationSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => reply.status(201).send(await invitations.create(request.ctx, request.body, mailBaseUrl(publicUrl, request))),
    );

    api.post(
      '/organization-invitation/:uuid/resend',
      {
        config: { access: { roles: ADMINS, scope: 'organization' } },
        schema: {
          tags,
          summary: "Renvoie une invitation : nouveau lien valable 7 jours, l'ancien ne sert plus (administrateur)",
          params: UuidParamsSchema,
          response: { 200: InvitationSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      (request) => invitations.resend(request.ctx, request.params.uuid, mailBaseUrl(publicUrl, request)),
    );

    api.delete(
      '/organization-invitation/:uuid',
      {
        config: { access: { roles: ADMINS, scope: 'organization' } },
        schema: {
          tags,
          summary: 'Annule une invitation en attente : son lien ne sert plus (administrateur)',
          params: UuidParamsSchema,
          response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        await invitations.cancel(request.ctx, request.params.uuid);
        return reply.status(204).send(null);
      },
    );
  });
};
