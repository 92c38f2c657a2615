import { InsuranceContractListSchema, InsuranceContractSchema, SaveInsuranceContractBodySchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './insurance-contract.service.js';
import { ADMINS, EVERY_ROLE } from '../../plugins/route-access.js';

export const insuranceContractRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Contrat'];

  app.get(
    '/contract',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: "Contrat d'assurance de la flotte : toutes ses versions, la plus récente (en vigueur) d'abord",
        response: { 200: InsuranceContractListSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => service.listContracts(app.db, request.ctx),
  );

  app.post(
    '/contract/create-or-update',
    {
      config: { access: { roles: ADMINS, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Enregistre le contrat (une nouvelle version, l’historique est gardé ; administrateurs)',
        body: SaveInsuranceContractBodySchema,
        response: { 200: InsuranceContractSchema, 201: InsuranceContractSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { contract, created } = await service.saveContract(app.db, request.ctx, request.body);
      return reply.status(created ? 201 : 200).send(contract);
    },
  );
};
