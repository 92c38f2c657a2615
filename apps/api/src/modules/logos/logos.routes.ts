import multipart from '@fastify/multipart';
import { EnvironmentSchema, LOGO_HEIGHT, LOGO_MAX_BYTES, LOGO_WIDTH, OrganizationSchema, UuidParamsSchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { ImageVersionParamsSchema, imageMultipartLimits, readUploadedImage, sendImage, WEBP_RESPONSE } from '../../platform/images/image-routes.js';
import * as logos from './logos.service.js';
import { BROKERS, EVERY_ROLE, PUBLIC_ACCESS } from '../../plugins/route-access.js';

// Logos of organizations and environments (decision 042): upload and removal behind sign-in, the
// image itself without (an <img> sends no bearer token; the URL's random version is the key).

const box = `WebP tenant dans ${LOGO_WIDTH} × ${LOGO_HEIGHT} px, proportions et transparence gardées`;
const file = `champ multipart « file » : JPEG, PNG ou WebP, ${LOGO_MAX_BYTES / 1024 / 1024} Mo au plus`;

export const logosRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, imageMultipartLimits(LOGO_MAX_BYTES));
  const deps = () => ({ db: app.db, storage: app.storage });

  app.post(
    '/organization/:uuid/logo',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      bodyLimit: LOGO_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['Organisations'],
        summary: `Remplace le logo de l’organisation (${file}), gardé en ${box}`,
        description: 'Ses administrateurs, les superadmins de son environnement et ROOT ; un simple membre : 403 ; une autre organisation : 404.',
        consumes: ['multipart/form-data'],
        params: UuidParamsSchema,
        response: { 200: OrganizationSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => logos.setOrganizationLogo(deps(), request.ctx, request.params.uuid, await readUploadedImage(request, logos.LOGO_TOO_LARGE_MESSAGE)),
  );

  app.delete(
    '/organization/:uuid/logo',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Organisations'],
        summary: 'Retire le logo de l’organisation',
        params: UuidParamsSchema,
        response: { 200: OrganizationSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => logos.removeOrganizationLogo(deps(), request.ctx, request.params.uuid),
  );

  app.post(
    '/environment/:uuid/logo',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      bodyLimit: LOGO_MAX_BYTES + 64 * 1024,
      schema: {
        tags: ['Environnements'],
        summary: `Remplace le logo de l’environnement (${file}), gardé en ${box}`,
        description: 'Ses superadmins et ROOT ; tout autre : 404.',
        consumes: ['multipart/form-data'],
        params: UuidParamsSchema,
        response: { 200: EnvironmentSchema, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request) => logos.setEnvironmentLogo(deps(), request.ctx, request.params.uuid, await readUploadedImage(request, logos.LOGO_TOO_LARGE_MESSAGE)),
  );

  app.delete(
    '/environment/:uuid/logo',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags: ['Environnements'],
        summary: 'Retire le logo de l’environnement',
        params: UuidParamsSchema,
        response: { 200: EnvironmentSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => logos.removeEnvironmentLogo(deps(), request.ctx, request.params.uuid),
  );
};

/** The logos' images, without authentication, at the URL the organization or environment gives. */
export const logoFileRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, storage: app.storage });
  app.get(
    '/organization/:uuid/logo/:version',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags: ['Organisations'],
        summary: `Le logo d’une organisation (${box}), à l’adresse que donne l’organisation`,
        security: [],
        params: ImageVersionParamsSchema,
        response: { 200: WEBP_RESPONSE, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => sendImage(reply, await logos.openOrganizationLogo(deps(), request.params.uuid, request.params.version)),
  );
  app.get(
    '/environment/:uuid/logo/:version',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags: ['Environnements'],
        summary: `Le logo d’un environnement (${box}), à l’adresse que donne l’environnement`,
        security: [],
        params: ImageVersionParamsSchema,
        response: { 200: WEBP_RESPONSE, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => sendImage(reply, await logos.openEnvironmentLogo(deps(), request.params.uuid, request.params.version)),
  );
};
