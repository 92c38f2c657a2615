import { UuidParamsSchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { sendExportedFile } from '../../lib/register-export.js';
import { ADMINS } from '../../plugins/route-access.js';
import { organizationExport } from './organization-export.service.js';

/** GET /api/organization/{uuid}/export: an organization's data, for its administrators (issue 20, GDPR). */
export const organizationExportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/organization/:uuid/export',
    {
      config: { access: { roles: ADMINS, scope: 'environment' } },
      schema: {
        tags: ['Organisations'],
        summary: 'Exporte toutes les données de l’organisation (RGPD) : un ZIP de ses tables en JSON et de ses fichiers',
        description:
          'Pour un administrateur de l’organisation, un superadministrateur de son environnement ou ROOT (une autre organisation : 404). ' +
          '« organisation.json » (l’organisation, ses membres), un fichier JSON par table, les fichiers de la gestion documentaire dans « fichiers/ ».',
        params: UuidParamsSchema,
        response: {
          200: { description: 'Le ZIP, en pièce jointe.', content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } } },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => sendExportedFile(reply, await organizationExport({ db: app.db, storage: app.storage }, request.ctx, request.params.uuid)),
  );
};
