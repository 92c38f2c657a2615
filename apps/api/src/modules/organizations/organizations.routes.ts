import {
  CreateOrganizationUserBodySchema,
  IdParamsSchema,
  ListOrganizationsQuerySchema,
  ListOrganizationUsersQuerySchema,
  OrganizationPageSchema,
  OrganizationUserPageSchema,
  OrganizationUserSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './organizations.service.js';

export const organizationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/organization',
    {
      schema: {
        tags: ['Organisations'],
        summary: "Organisations visibles : les siennes ; celles de l'environnement pour un superadmin ; toutes pour ROOT",
        querystring: ListOrganizationsQuerySchema,
        response: { 200: OrganizationPageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.listVisible(app.db, request.ctx, request.query),
  );

  app.get(
    '/organization/environment',
    {
      schema: {
        tags: ['Organisations'],
        summary: "Organisations des environnements que l'utilisateur gère (superadmin, ROOT)",
        querystring: ListOrganizationsQuerySchema,
        response: { 200: OrganizationPageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.listOfMyEnvironments(app.db, request.ctx, request.query),
  );

  app.get(
    '/organization-user',
    {
      schema: {
        tags: ['Organisations'],
        summary: "Liens organisation-utilisateur : ceux de l'utilisateur, ou les membres d'une organisation",
        querystring: ListOrganizationUsersQuerySchema,
        response: { 200: OrganizationUserPageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.listLinks(app.db, request.ctx, request.query),
  );

  app.post(
    '/organization-user',
    {
      schema: {
        tags: ['Organisations'],
        summary: "Rattache un compte existant à une organisation (superadmin de l'environnement, ROOT ; un administrateur invite)",
        body: CreateOrganizationUserBodySchema,
        response: { 201: OrganizationUserSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createLink(app.db, request.ctx, request.body)),
  );

  app.delete(
    '/organization-user/:id',
    {
      schema: {
        tags: ['Organisations'],
        summary: "Retire un utilisateur d'une organisation",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteLink(app.db, request.ctx, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
