import multipart from '@fastify/multipart';
import {
  AccountOrganizationListSchema,
  AVATAR_MAX_BYTES,
  AVATAR_SIZE,
  ChangeEmailBodySchema,
  ConfirmEmailChangeBodySchema,
  DeleteAccountBodySchema,
  EmailChangeRequestedSchema,
  UserSchema,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { ImageVersionParamsSchema, imageMultipartLimits, readUploadedImage, sendImage, WEBP_RESPONSE } from '../../platform/images/image-routes.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import { COOKIE_PATH, REFRESH_COOKIE } from '../auth/session-http.js';
import * as account from './account.service.js';
import { EVERY_ROLE, PUBLIC_ACCESS } from '../../plugins/route-access.js';

// The account page's calls (issue 15, decision 036). Names, phone and description: PATCH
// /api/user/{uuid} (users.routes.ts); the password: POST /api/auth/password.

export type AccountRoutesOptions = Omit<account.AccountDeps, 'db' | 'storage'> & { publicUrl: string | undefined };

const tags = ['Utilisateurs'];

export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, { publicUrl, ...options }) => {
  await app.register(multipart, imageMultipartLimits(AVATAR_MAX_BYTES));
  const deps = (): account.AccountDeps => ({ db: app.db, storage: app.storage, ...options });

  app.post(
    '/user/avatar',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      bodyLimit: AVATAR_MAX_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: `Remplace sa photo de profil (champ multipart « file » : JPEG, PNG ou WebP, ${AVATAR_MAX_BYTES / 1024 / 1024} Mo au plus), gardée en WebP carré de ${AVATAR_SIZE} px`,
        consumes: ['multipart/form-data'],
        response: { 200: UserSchema, ...errorResponses(400, 401, 413, 415) },
      },
    },
    async (request) => {
      const input = await readUploadedImage(request, account.AVATAR_TOO_LARGE_MESSAGE);
      return account.setAvatar(deps(), request.ctx, input);
    },
  );

  app.delete(
    '/user/avatar',
    { config: { access: { roles: EVERY_ROLE, scope: 'self' } }, schema: { tags, summary: 'Retire sa photo de profil', response: { 200: UserSchema, ...errorResponses(401) } } },
    (request) => account.removeAvatar(deps(), request.ctx),
  );

  app.post(
    '/user/email',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Demande à changer d’adresse e-mail : un lien valable 24 heures part vers la nouvelle adresse, l’actuelle est prévenue',
        description:
          'Le mot de passe actuel est demandé. Même réponse si la nouvelle adresse est déjà celle d’un autre compte (son titulaire est alors prévenu, aucun lien ne part).',
        body: ChangeEmailBodySchema,
        response: { 202: EmailChangeRequestedSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const answer = await account.requestEmailChange(deps(), request.ctx, request.body, request.ip, mailBaseUrl(publicUrl, request));
      return reply.status(202).send(answer);
    },
  );

  app.post(
    '/user/email/confirm',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Confirme le changement d’adresse avec le lien reçu (une seule fois, 24 heures, par le titulaire du compte connecté)',
        body: ConfirmEmailChangeBodySchema,
        response: { 200: UserSchema, ...errorResponses(400, 401, 409) },
      },
    },
    (request) => account.confirmEmailChange(deps(), request.ctx, request.body.token),
  );

  app.get(
    '/user/organizations',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Ses organisations, avec son rôle dans chacune',
        response: { 200: AccountOrganizationListSchema, ...errorResponses(401) },
      },
    },
    (request) => account.organizationsOf(app.db, request.ctx),
  );

  app.delete(
    '/user/:uuid',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Supprime son compte (mot de passe actuel et « SUPPRIMER ») : ses données personnelles partent, celles des organisations restent',
        description: 'Refusé (409) tant que l’utilisateur est le seul administrateur d’une organisation.',
        params: UuidParamsSchema,
        body: DeleteAccountBodySchema,
        response: { 204: z.null().meta({ description: 'Compte supprimé, sessions terminées' }), ...errorResponses(400, 401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      await account.deleteAccount(deps(), request.ctx, request.params.uuid, request.body.currentPassword, request.ip);
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      return reply.status(204).send(null);
    },
  );
};

/**
 * The avatar's image, without authentication (an <img> sends no bearer token): its URL holds a
 * random version, unknown to whoever has not been shown it, and changes with each image; the
 * browser keeps it for good.
 */
export const avatarFileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user/:uuid/avatar/:version',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: `La photo de profil d’un utilisateur (WebP carré de ${AVATAR_SIZE} px), à l’adresse que donne son profil`,
        security: [],
        params: ImageVersionParamsSchema,
        response: {
          200: WEBP_RESPONSE,
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const image = await account.openAvatar({ db: app.db, storage: app.storage }, request.params.uuid, request.params.version);
      return sendImage(reply, image);
    },
  );
};
