import { ExportVehiculesQuerySchema, ArchiveVehiculeQuerySchema, CategoryParamsSchema, CreateVehiculeBodySchema, ListVehiculeChoicesQuerySchema, ListVehiculesQuerySchema, UpdateCategoryQuerySchema, UpdateCategoryResponseSchema, UpdateVehiculeBodySchema, VehiculeChoicePageSchema, VehiculePageSchema, VehiculeSchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../lib/register-routes.js';
import { errorResponses } from '../../lib/route-schemas.js';
import type { FleetNotifier } from '../insurance-intermediary/insurance-intermediary.service.js';
import * as service from './vehicules.service.js';
import { EVERY_ROLE } from '../../plugins/route-access.js';

export type VehiculesRoutesOptions = { publicUrl: string | undefined };

export const vehiculesRoutes: FastifyPluginAsyncZod<VehiculesRoutesOptions> = async (app, { publicUrl }) => {
  const tags = ['Véhicules'];
  // Entries and exits are told to the intermediary by e-mail; its links point to PUBLIC_URL, else to where the request came from.
  const notifier = (origin: string): FleetNotifier => ({ mail: app.mail, baseUrl: publicUrl ?? origin });

  registerRoutes(app, {
    path: '/vehicule',
    tags,
    item: VehiculeSchema,
    service: {
      ...service,
      create: (db, ctx, body, origin) => service.create(db, ctx, body, notifier(origin)),
      update: (db, ctx, uuid, body, origin) => service.update(db, ctx, uuid, body, notifier(origin)),
    },
    export: { summary: 'Exporte la vue de la liste des véhicules (CSV ou Excel)', querystring: ExportVehiculesQuerySchema },
    list: {
      summary: 'Véhicules de l’organisation, paginés (actifs par défaut, brouillons exclus)',
      querystring: ListVehiculesQuerySchema,
      response: VehiculePageSchema,
    },
    choices: {
      summary: 'Véhicules à choisir dans un formulaire (en service, par immatriculation), recherchés par immatriculation, marque ou modèle',
      querystring: ListVehiculeChoicesQuerySchema,
      response: VehiculeChoicePageSchema,
      list: service.listChoices,
    },
    getOne: { summary: 'Un véhicule (brouillon compris)' },
    create: { summary: 'Ajoute un véhicule', body: CreateVehiculeBodySchema, errors: [409] },
    update: { summary: 'Modifie ou complète un véhicule', body: UpdateVehiculeBodySchema, errors: [409] },
    archive: { summary: 'Archive un véhicule après avoir fixé sa date de sortie (aujourd’hui par défaut)', querystring: ArchiveVehiculeQuerySchema },
    restore: { summary: 'Restaure un véhicule archivé (sa date de sortie est effacée)', errors: [409] },
    hardDelete: { summary: 'Supprime définitivement un véhicule (administrateurs)' },
  });

  app.post(
    '/vehicule/create-empty',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Crée un brouillon de véhicule, complété ensuite par PATCH (brouillons de plus de 24 h purgés)',
        response: { 201: VehiculeSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createEmpty(app.db, request.ctx)),
  );

  app.patch(
    '/vehicule/category/:id',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Change la catégorie de tous les véhicules correspondant aux filtres',
        params: CategoryParamsSchema,
        querystring: UpdateCategoryQuerySchema,
        response: { 200: UpdateCategoryResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => service.updateCategory(app.db, request.ctx, request.params.id, request.query),
  );
};
