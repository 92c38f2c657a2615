import {
  CreateSinisterBodySchema,
  GuaranteeListSchema,
  IdParamsSchema,
  ListSinistersQuerySchema,
  SinisterPageSchema,
  SinisterSchema,
  UpdateSinisterBodySchema,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { wantsFresh } from '../../lib/page-cache.js';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './sinisters.service.js';

export const sinistersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Sinistres'];

  app.get(
    '/guarantees',
    { schema: { tags, summary: 'Garanties, dans l’ordre de la liste de référence', response: { 200: GuaranteeListSchema, ...errorResponses(400, 401) } } },
    (request) => service.listGuarantees(app.db, request.ctx),
  );

  app.get(
    '/sinister',
    {
      schema: {
        tags,
        summary: 'Sinistres de l’organisation, filtrés et paginés (actifs par défaut, les plus récents d’abord)',
        querystring: ListSinistersQuerySchema,
        response: { 200: SinisterPageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.list(app.db, request.ctx, request.query, { fresh: wantsFresh(request.headers) }),
  );

  app.get(
    '/sinister/:id',
    { schema: { tags, summary: 'Un sinistre', params: IdParamsSchema, response: { 200: SinisterSchema, ...errorResponses(400, 401, 404) } } },
    (request) => service.getOne(app.db, request.ctx, request.params.id),
  );

  app.post(
    '/sinister',
    {
      schema: { tags, summary: 'Déclare un sinistre', body: CreateSinisterBodySchema, response: { 201: SinisterSchema, ...errorResponses(400, 401) } },
    },
    async (request, reply) => reply.status(201).send(await service.create(app.db, request.ctx, request.body)),
  );

  app.patch(
    '/sinister/:uuid',
    {
      schema: {
        tags,
        summary: 'Modifie un sinistre',
        params: UuidParamsSchema,
        body: UpdateSinisterBodySchema,
        response: { 200: SinisterSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.update(app.db, request.ctx, request.params.uuid, request.body),
  );

  app.delete(
    '/sinister/:uuid',
    {
      schema: { tags, summary: 'Archive un sinistre', params: UuidParamsSchema, response: { 200: SinisterSchema, ...errorResponses(400, 401, 404) } },
    },
    (request) => service.archive(app.db, request.ctx, request.params.uuid),
  );

  app.delete(
    '/sinister/:uuid/hard',
    {
      schema: {
        tags,
        summary: 'Supprime définitivement un sinistre (administrateurs)',
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
    '/sinister/restore/:uuid',
    {
      schema: { tags, summary: 'Restaure un sinistre archivé', params: UuidParamsSchema, response: { 200: SinisterSchema, ...errorResponses(400, 401, 404) } },
    },
    (request) => service.restore(app.db, request.ctx, request.params.uuid),
  );
};
