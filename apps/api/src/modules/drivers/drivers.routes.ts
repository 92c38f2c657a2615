import { CreateDriverBodySchema, DriverPageSchema, DriverSchema, ListDriversQuerySchema, UpdateDriverBodySchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../lib/register-routes.js';
import * as service from './drivers.service.js';

export const driversRoutes: FastifyPluginAsyncZod = async (app) => {
  registerRoutes(app, {
    path: '/driver',
    tags: ['Conducteurs'],
    item: DriverSchema,
    service,
    list: { summary: 'Conducteurs de l’organisation, paginés (actifs par défaut)', querystring: ListDriversQuerySchema, response: DriverPageSchema },
    getOne: { summary: 'Un conducteur' },
    create: { summary: 'Ajoute un conducteur', body: CreateDriverBodySchema },
    update: { summary: 'Modifie un conducteur', body: UpdateDriverBodySchema },
    archive: { summary: 'Archive un conducteur' },
    restore: { summary: 'Restaure un conducteur archivé' },
    hardDelete: { summary: 'Supprime définitivement un conducteur (administrateurs)' },
  });
};
