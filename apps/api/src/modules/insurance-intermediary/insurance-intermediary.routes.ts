import {
  CreateInsuranceIntermediaryBodySchema,
  CurrentInsuranceIntermediarySchema,
  InsuranceIntermediaryListSchema,
  InsuranceIntermediarySchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './insurance-intermediary.service.js';
import { ADMINS, EVERY_ROLE } from '../../plugins/route-access.js';

export const insuranceIntermediaryRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["Intermédiaire d'assurance"];

  app.get(
    '/insurance-intermediary',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: "Intermédiaires d'assurance de l'organisation, le plus récent d'abord (historique)",
        response: { 200: InsuranceIntermediaryListSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => service.listIntermediaries(app.db, request.ctx),
  );

  app.get(
    '/insurance-intermediary/current',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: "L'intermédiaire en fonction (le dernier dont la date de début est passée), ou null",
        response: { 200: CurrentInsuranceIntermediarySchema, ...errorResponses(401, 403) },
      },
    },
    (request) => service.currentIntermediary(app.db, request.ctx),
  );

  app.post(
    '/insurance-intermediary',
    {
      config: { access: { roles: ADMINS, scope: 'organization' } },
      schema: {
        tags,
        summary: "Nouvel intermédiaire d'assurance (à partir d'aujourd'hui midi par défaut ; administrateurs)",
        body: CreateInsuranceIntermediaryBodySchema,
        response: { 201: InsuranceIntermediarySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createIntermediary(app.db, request.ctx, request.body)),
  );
};
