import { RenewalReportQuerySchema, todayIso } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './renewal-report.service.js';
import { EVERY_ROLE } from '../../plugins/route-access.js';

/** The PDF itself: not serialized (a stream), declared for the OpenAPI document. */
const PdfSchema = z.string().meta({ format: 'binary' });

export const renewalReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dashboard/renewal-report',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Tableau de bord'],
        summary: 'Rapport de sinistralité de la fenêtre, en PDF (couverture, indicateurs et limites, graphique mensuel, répartitions, demi-différences, sinistres)',
        description: `startDate et endDate inclus (par défaut : les six derniers mois) ; isDeclared : true, false ou absent pour tous ; sinistres archivés exclus. La liste des sinistres s’arrête aux ${service.REPORT_CLAIMS_MAX} premiers par date ; une ligne dit combien restent.`,
        querystring: RenewalReportQuerySchema,
        response: { 200: { description: 'Le rapport (application/pdf), en pièce jointe.', content: { 'application/pdf': { schema: PdfSchema } } }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await service.renewalReport(app.db, request.ctx, request.query, todayIso());
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        // The 200 schema documents the bytes; Fastify sends a stream as it is, without serializing it.
        .send(stream as unknown as string);
    },
  );
};
