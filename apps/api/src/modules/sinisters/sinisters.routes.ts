import { ExportSinistersQuerySchema, CreateSinisterBodySchema, GuaranteeListSchema, ListSinistersQuerySchema, SinisterPageSchema, SinisterSchema, UpdateSinisterBodySchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../lib/register-routes.js';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './sinisters.service.js';

export const sinistersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Sinistres'];

  app.get(
    '/guarantees',
    { schema: { tags, summary: 'Garanties, dans l’ordre de la liste de référence', response: { 200: GuaranteeListSchema, ...errorResponses(400, 401, 403) } } },
    (request) => service.listGuarantees(app.db, request.ctx),
  );

  registerRoutes(app, {
    path: '/sinister',
    tags,
    item: SinisterSchema,
    service,
    export: { summary: 'Exporte la vue de la liste des sinistres (CSV ou Excel)', querystring: ExportSinistersQuerySchema },
    list: {
      summary: 'Sinistres de l’organisation, filtrés et paginés (actifs par défaut, les plus récents d’abord)',
      querystring: ListSinistersQuerySchema,
      response: SinisterPageSchema,
    },
    // The SPEC spells this one GET /api/sinister/{id}.
    getOne: { summary: 'Un sinistre', param: 'id' },
    create: { summary: 'Déclare un sinistre', body: CreateSinisterBodySchema },
    update: { summary: 'Modifie un sinistre', body: UpdateSinisterBodySchema },
    archive: { summary: 'Archive un sinistre' },
    restore: { summary: 'Restaure un sinistre archivé' },
    hardDelete: { summary: 'Supprime définitivement un sinistre (administrateurs)' },
  });
};
