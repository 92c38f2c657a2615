import {
  ArchiveVehiculeQuerySchema,
  CategoryParamsSchema,
  CreateVehiculeBodySchema,
  ListVehiculesQuerySchema,
  UpdateCategoryQuerySchema,
  UpdateCategoryResponseSchema,
  UpdateVehiculeBodySchema,
  UuidParamsSchema,
  VehiculePageSchema,
  VehiculeSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { wantsFresh } from '../../lib/page-cache.js';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './vehicules.service.js';

export const vehiculesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Véhicules'];

  app.get(
    '/vehicule',
    {
      schema: {
        tags,
        summary: 'Véhicules de l’organisation, paginés (actifs par défaut, brouillons exclus)',
        querystring: ListVehiculesQuerySchema,
        response: { 200: VehiculePageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.list(app.db, request.ctx, request.query, { fresh: wantsFresh(request.headers) }),
  );

  app.get(
    '/vehicule/:uuid',
    { schema: { tags, summary: 'Un véhicule (brouillon compris)', params: UuidParamsSchema, response: { 200: VehiculeSchema, ...errorResponses(400, 401, 404) } } },
    (request) => service.getOne(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/vehicule',
    {
      schema: { tags, summary: 'Ajoute un véhicule', body: CreateVehiculeBodySchema, response: { 201: VehiculeSchema, ...errorResponses(400, 401, 409) } },
    },
    async (request, reply) => reply.status(201).send(await service.create(app.db, request.ctx, request.body)),
  );

  app.post(
    '/vehicule/create-empty',
    {
      schema: {
        tags,
        summary: 'Crée un brouillon de véhicule, complété ensuite par PATCH (brouillons de plus de 24 h purgés)',
        response: { 201: VehiculeSchema, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createEmpty(app.db, request.ctx)),
  );

  app.patch(
    '/vehicule/category/:id',
    {
      schema: {
        tags,
        summary: 'Change la catégorie de tous les véhicules correspondant aux filtres',
        params: CategoryParamsSchema,
        querystring: UpdateCategoryQuerySchema,
        response: { 200: UpdateCategoryResponseSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.updateCategory(app.db, request.ctx, request.params.id, request.query),
  );

  app.patch(
    '/vehicule/:uuid',
    {
      schema: {
        tags,
        summary: 'Modifie ou complète un véhicule',
        params: UuidParamsSchema,
        body: UpdateVehiculeBodySchema,
        response: { 200: VehiculeSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    (request) => service.update(app.db, request.ctx, request.params.uuid, request.body),
  );

  app.delete(
    '/vehicule/:uuid',
    {
      schema: {
        tags,
        summary: 'Archive un véhicule après avoir fixé sa date de sortie (aujourd’hui par défaut)',
        params: UuidParamsSchema,
        querystring: ArchiveVehiculeQuerySchema,
        response: { 200: VehiculeSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.archive(app.db, request.ctx, request.params.uuid, request.query),
  );

  app.delete(
    '/vehicule/:uuid/hard',
    {
      schema: {
        tags,
        summary: 'Supprime définitivement un véhicule (administrateurs)',
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
    '/vehicule/restore/:uuid',
    {
      schema: {
        tags,
        summary: 'Restaure un véhicule archivé',
        params: UuidParamsSchema,
        response: { 200: VehiculeSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    (request) => service.restore(app.db, request.ctx, request.params.uuid),
  );
};
