import {
  BrokerOrganizationPageSchema,
  BrokerOrganizationsExportQuerySchema,
  BrokerOrganizationsQuerySchema,
  CreateBrokerOrganizationBodySchema,
  OrganizationSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendExportedFile } from '../../lib/register-export.js';
import { EXPORTED_FILE } from '../../lib/register-routes.js';
import { errorResponses } from '../../lib/route-schemas.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import type { InvitationsService } from '../organizations/invitations.service.js';
import * as service from './broker.service.js';
import { BROKERS } from '../../plugins/route-access.js';

/** The broker's console (issue 16, decision 039): superadmins of the environment and ROOT. */
export type BrokerRoutesOptions = { invitations: InvitationsService; publicUrl: string | undefined };

export const brokerRoutes: FastifyPluginAsyncZod<BrokerRoutesOptions> = async (app, { invitations, publicUrl }) => {
  const tags = ['Courtier'];

  app.get(
    '/broker/organization',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary:
          "Organisations clientes de l'environnement avec leurs chiffres : véhicules, sinistres de l'année, S/P et fréquence de la période en cours et leurs limites, demi-différence, échéance, dernière activité",
        querystring: BrokerOrganizationsQuerySchema,
        response: { 200: BrokerOrganizationPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.list(app.db, request.ctx, request.query),
  );

  app.get(
    '/broker/organization/export',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: "Exporte le tableau des organisations clientes (CSV ou Excel), recherche et tri compris",
        description: 'CSV (UTF-8 avec BOM, « ; », dates jj/mm/aaaa, montants 1 234,56) ou XLSX (cellules typées, en-tête figé, filtres). Toutes les lignes de la vue ; page et limit sont ignorés.',
        querystring: BrokerOrganizationsExportQuerySchema,
        response: { 200: EXPORTED_FILE, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => sendExportedFile(reply, await service.exportOrganizations(app.db, request.ctx, request.query as never)),
  );

  app.post(
    '/broker/organization',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: "Crée une organisation cliente dans l'environnement, et invite par e-mail son premier administrateur",
        description:
          'adminEmail (facultatif) reçoit une invitation valable 7 jours au rôle ADMIN, dans la même transaction que l’organisation. Le logo s’envoie ensuite : POST /api/organization/{uuid}/logo.',
        body: CreateBrokerOrganizationBodySchema,
        response: { 201: OrganizationSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(app.db, request.ctx, request.body, { invitations, baseUrl: mailBaseUrl(publicUrl, request) })),
  );
};
