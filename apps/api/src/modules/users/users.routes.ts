import { AcceptCguBodySchema, UpdateUserBodySchema, UserSchema, UuidParamsSchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './users.service.js';
import { EVERY_ROLE } from '../../plugins/route-access.js';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/user/:uuid',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags: ['Utilisateurs'],
        summary: "Modifie son propre profil ou change d'organisation courante",
        params: UuidParamsSchema,
        body: UpdateUserBodySchema,
        response: { 200: UserSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.updateSelf(app.db, request.ctx, request.params.uuid, request.body),
  );
  app.post(
    '/user/cgu',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags: ['Utilisateurs'],
        summary: 'Accepte les conditions générales d’utilisation en vigueur (leur version et la date sont conservées)',
        body: AcceptCguBodySchema,
        response: { 200: UserSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.acceptCgu(app.db, request.ctx.userUuid, request.body.version),
  );
};
