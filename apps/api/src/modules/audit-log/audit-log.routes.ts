import { AuditActorListSchema, AuditLogPageSchema, ListAuditLogQuerySchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './audit-log.service.js';
import { ADMINS } from '../../plugins/route-access.js';

/** The organization's activity log (decision 041): read-only, the database writes it. */
export const auditLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["Journal d'activité"];

  app.get(
    '/audit-log',
    {
      config: { access: { roles: ADMINS, scope: 'organization' } },
      schema: {
        tags,
        summary: "Journal d'activité de l'organisation courante : qui a écrit quoi, quand, avant et après (administrateurs), les plus récentes d'abord",
        querystring: ListAuditLogQuerySchema,
        response: { 200: AuditLogPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => service.listAuditLog(app.db, request.ctx, request.query),
  );

  app.get(
    '/audit-log/actors',
    {
      config: { access: { roles: ADMINS, scope: 'organization' } },
      schema: { tags, summary: "Auteurs des écritures du journal d'activité (filtre)", response: { 200: AuditActorListSchema, ...errorResponses(401, 403) } },
    },
    (request) => service.listAuditActors(app.db, request.ctx),
  );
};
