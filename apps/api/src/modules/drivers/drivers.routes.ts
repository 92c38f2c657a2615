import { ExportDriversQuerySchema, CreateDriverBodySchema, DriverChoicePageSchema, DriverPageSchema, DriverSchema, ListDriverChoicesQuerySchema, ListDriversQuerySchema, UpdateDriverBodySchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerRoutes } from '../../lib/register-routes.js';
import * as service from './drivers.service.js';

export const driversRoutes: FastifyPluginAsyncZod = async (app) => {
  registerRoutes(app, {
    path: '/driver',
    tags: ['Conducteurs'],
    item: DriverSchema,
    service,
    export: { summary: 'Exporte la vue de la liste des conducteurs (CSV ou Excel)', querystring: ExportDriversQuerySchema },
    list: { summary: 'Conducteurs de l’organisation, paginés (actifs par défaut)', querystring: ListDriversQuerySchema, response: DriverPageSchema },
    choices: {
      summary: 'Conducteurs à choisir dans un formulaire (actifs, par nom), recherchés par nom, e-mail ou téléphone',
      querystring: ListDriverChoicesQuerySchema,
      response: DriverChoicePageSchema,
      list: service.listChoices,
    },
    getOne: { summary: 'Un conducteur' },
    create: { summary: 'Ajoute un conducteur (409 si un conducteur actif a le même e-mail, ou les mêmes nom, prénom et téléphone, sauf force: true)', body: CreateDriverBodySchema, errors: [409] },
    update: { summary: 'Modifie un conducteur', body: UpdateDriverBodySchema },
    archive: { summary: 'Archive un conducteur' },
    restore: { summary: 'Restaure un conducteur archivé' },
    hardDelete: { summary: 'Supprime définitivement un conducteur (administrateurs)' },
  });
};
