import { CreateReportBodySchema, ReportSchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './reports.service.js';
import { EVERY_ROLE } from '../../plugins/route-access.js';

export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/report',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Support'],
        summary: "Signale un bug ou propose une suggestion (aide et support)",
        body: CreateReportBodySchema,
        response: { 201: ReportSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createReport(app.db, request.ctx, request.body)),
  );
};
