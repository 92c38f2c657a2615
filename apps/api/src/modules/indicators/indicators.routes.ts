import { CurrentIndicatorSchema, IndicatorListSchema, IndicatorParamsSchema, SaveIndicatorsBodySchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './indicators.service.js';
import { ADMINS, EVERY_ROLE } from '../../plugins/route-access.js';

export const indicatorsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Indicateurs'];
  app.get(
    '/indicators',
    { config: { access: { roles: EVERY_ROLE, scope: 'organization' } }, schema: { tags, summary: "Périodes d'assurance de l'organisation, de la plus récente à la plus ancienne", response: { 200: IndicatorListSchema, ...errorResponses(401, 403) } } },
    async (request) => service.listIndicators(app.db, request.ctx),
  );
  app.get(
    '/indicators/current',
    { config: { access: { roles: EVERY_ROLE, scope: 'organization' } }, schema: { tags, summary: "La période qui contient aujourd'hui, ou null", response: { 200: CurrentIndicatorSchema, ...errorResponses(401, 403) } } },
    async (request) => service.currentIndicator(app.db, request.ctx),
  );
  app.post(
    '/indicators',
    {
      config: { access: { roles: ADMINS, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Crée (sans uuid) ou modifie (avec uuid) des périodes en une transaction ; répond toutes les périodes (administrateurs)',
        body: SaveIndicatorsBodySchema,
        response: { 200: IndicatorListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.saveIndicators(app.db, request.ctx, request.body),
  );
  app.delete(
    '/indicators/:id',
    {
      config: { access: { roles: ADMINS, scope: 'organization' } },
      schema: { tags, summary: 'Supprime une période (administrateurs)', params: IndicatorParamsSchema, response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) } },
    },
    async (request, reply) => {
      await service.deleteIndicator(app.db, request.ctx, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
