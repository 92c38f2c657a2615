import {
  CreateDriverBodySchema,
  DriverPageSchema,
  DriverSchema,
  ListDriversQuerySchema,
  UpdateDriverBodySchema,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { wantsFresh } from '../../lib/page-cache.js';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './drivers.service.js';

export const driversRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Conducteurs'];

  app.get(
    '/driver',
    {
      schema: {
        tags,
        summary: 'Conducteurs de l’organisation, paginés (actifs par défaut)',
        querystring: ListDriversQuerySchema,
        response: { 200: DriverPageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.list(app.db, request.ctx, request.query, { fresh: wantsFresh(request.headers) }),
  );

  app.get(
    '/driver/:uuid',
    { schema: { tags, summary: 'Un conducteur', params: UuidParamsSchema, response: { 200: DriverSchema, ...errorResponses(400, 401, 404) } } },
    (request) => service.getOne(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/driver',
    {
      schema: { tags, summary: 'Ajoute un conducteur', body: CreateDriverBodySchema, response: { 201: DriverSchema, ...errorResponses(400, 401) } },
    },
    async (request, reply) => reply.status(201).send(await service.create(app.db, request.ctx, request.body)),
  );

  app.patch(
    '/driver/:uuid',
    {
      schema: {
        tags,
        summary: 'Modifie un conducteur',
        params: UuidParamsSchema,
        body: UpdateDriverBodySchema,
        response: { 200: DriverSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.update(app.db, request.ctx, request.params.uuid, request.body),
  );

  app.delete(
    '/driver/:uuid',
    {
      schema: { tags, summary: 'Archive un conducteur', params: UuidParamsSchema, response: { 200: DriverSchema, ...errorResponses(400, 401, 404) } },
    },
    (request) => service.archive(app.db, request.ctx, request.params.uuid),
  );

  app.delete(
    '/driver/:uuid/hard',
    {
      schema: {
        tags,
        summary: 'Supprime définitivement un conducteur (administrateurs)',
        params: UuidParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.hardDelete(app.db, request.ctx, request.params.uuid);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/driver/restore/:uuid',
    {
      schema: { tags, summary: 'Restaure un conducteur archivé', params: UuidParamsSchema, response: { 200: DriverSchema, ...errorResponses(400, 401, 404) } },
    },
    (request) => service.restore(app.db, request.ctx, request.params.uuid),
  );
};
