import {
  ExportSinistersQuerySchema,
  CreateSinisterBodySchema,
  GuaranteeBodySchema,
  GuaranteeListSchema,
  GuaranteeSchema,
  ListSinistersQuerySchema,
  SinisterPageSchema,
  SinisterSchema,
  todayIso,
  UpdateSinisterBodySchema,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { registerRoutes } from '../../lib/register-routes.js';
import { errorResponses } from '../../lib/route-schemas.js';
import { contentDisposition } from '../../lib/spreadsheet-export.js';
import { claimPack } from './claim-pack.js';
import * as guaranteesService from './guarantees.service.js';
import * as service from './sinisters.service.js';
import { EVERY_ROLE, OPERATOR } from '../../plugins/route-access.js';

export const sinistersRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Sinistres'];

  app.get(
    '/guarantees',
    { config: { access: { roles: EVERY_ROLE, scope: 'platform' } }, schema: { tags, summary: 'Garanties, dans l’ordre de la liste de référence', response: { 200: GuaranteeListSchema, ...errorResponses(400, 401, 403) } } },
    (request) => service.listGuarantees(app.db, request.ctx),
  );

  app.post(
    '/guarantees',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: { tags, summary: 'Ajoute une garantie en fin de liste (ROOT)', body: GuaranteeBodySchema, response: { 201: GuaranteeSchema, ...errorResponses(400, 401, 403, 409) } },
    },
    async (request, reply) => reply.status(201).send(await guaranteesService.create(app.db, request.ctx, request.body)),
  );

  app.patch(
    '/guarantees/:uuid',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: {
        tags,
        summary: 'Renomme une garantie (ROOT) : toutes les listes de sinistres affichent aussitôt le nouveau libellé',
        params: UuidParamsSchema,
        body: GuaranteeBodySchema,
        response: { 200: GuaranteeSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => guaranteesService.rename(app.db, request.ctx, request.params.uuid, request.body),
  );

  app.get(
    '/sinister/:uuid/pack',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Le dossier du sinistre pour l’assureur : un ZIP avec son résumé en PDF et toutes ses pièces jointes',
        description: 'Nommé « Sinistre-<référence>-<date du sinistre>.zip » (sans référence : « Sinistre-<date>.zip ») ; le résumé « Résumé du sinistre.pdf », les fichiers dans « Pièces jointes/ ».',
        params: UuidParamsSchema,
        response: {
          200: { description: 'Le ZIP, en pièce jointe.', content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } } },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const pack = await claimPack({ db: app.db, storage: app.storage }, request.ctx, request.params.uuid, todayIso());
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition(pack.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(pack.stream as unknown as string);
    },
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
