import {
  CreateEnvironmentBodySchema,
  EnvironmentMembershipSchema,
  EnvironmentPageSchema,
  EnvironmentSchema,
  EnvironmentSuperadminParamsSchema,
  EnvironmentUserParamsSchema,
  ListEnvironmentsQuerySchema,
  SuperadminSchema,
  UpdateEnvironmentBodySchema,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './environments.service.js';

export const environmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Environnements'];

  app.get(
    '/environment',
    {
      schema: {
        tags,
        summary: 'Espaces gérés (tous pour ROOT)',
        querystring: ListEnvironmentsQuerySchema,
        response: { 200: EnvironmentPageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.list(app.db, request.ctx, request.query),
  );

  app.get(
    '/environment/current',
    {
      schema: {
        tags,
        summary: "L'environnement de l'utilisateur (son rattachement, sinon celui de son organisation)",
        response: { 200: EnvironmentSchema, ...errorResponses(401, 404) },
      },
    },
    (request) => service.getCurrent(app.db, request.ctx),
  );

  app.get(
    '/environment/:uuid',
    {
      schema: { tags, summary: 'Un espace géré', params: UuidParamsSchema, response: { 200: EnvironmentSchema, ...errorResponses(400, 401, 404) } },
    },
    (request) => service.getOne(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/environment',
    {
      schema: {
        tags,
        summary: 'Crée un espace (ROOT)',
        body: CreateEnvironmentBodySchema,
        response: { 201: EnvironmentSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(app.db, request.ctx, request.body)),
  );

  app.patch(
    '/environment/:uuid',
    {
      schema: {
        tags,
        summary: 'Modifie un espace (son superadmin, ROOT)',
        params: UuidParamsSchema,
        body: UpdateEnvironmentBodySchema,
        response: { 200: EnvironmentSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.update(app.db, request.ctx, request.params.uuid, request.body),
  );

  app.post(
    '/environment-user/:uuid/join',
    {
      schema: {
        tags,
        summary: "ROOT rejoint l'espace {uuid} et y travaille",
        params: EnvironmentUserParamsSchema,
        response: { 200: EnvironmentMembershipSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.join(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/environment-user/:uuid/quit',
    {
      schema: {
        tags,
        summary: "Quitte l'espace {uuid}",
        params: EnvironmentUserParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await service.quit(app.db, request.ctx, request.params.uuid);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/environment-user/:environmentUuid/superadmin',
    {
      schema: {
        tags,
        summary: "Le superadmin de l'environnement (aide et support), ou null",
        params: EnvironmentSuperadminParamsSchema,
        response: { 200: SuperadminSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.getSuperadmin(app.db, request.ctx, request.params.environmentUuid),
  );
};
