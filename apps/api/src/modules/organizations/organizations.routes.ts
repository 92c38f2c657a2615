import {
  CreateOrganizationUserBodySchema,
  IdParamsSchema,
  ListOrganizationsQuerySchema,
  ListOrganizationUsersQuerySchema,
  OrganizationPageSchema,
  OrganizationUserPageSchema,
  OrganizationUserSchema,
  UpdateOrganizationUserBodySchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import type { MailService } from '../../platform/platform-jobs.js';
import { resetMemberTwoFactor } from './member-two-factor.js';
import * as service from './organizations.service.js';
import { BROKERS, EVERY_ROLE } from '../../plugins/route-access.js';

export type OrganizationsRoutesOptions = { publicUrl: string | undefined; mail: () => MailService; onSessionsEnded: () => void };

export const organizationsRoutes: FastifyPluginAsyncZod<OrganizationsRoutesOptions> = async (app, { publicUrl, mail, onSessionsEnded }) => {
  app.get(
    '/organization',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Organisations'],
        summary: "Organisations visibles : les siennes ; celles de l'environnement pour un superadmin ; toutes pour ROOT",
        querystring: ListOrganizationsQuerySchema,
        response: { 200: OrganizationPageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.listVisible(app.db, request.ctx, request.query),
  );

  app.get(
    '/organization/environment',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Organisations'],
        summary: "Organisations des environnements que l'utilisateur gère (superadmin, ROOT)",
        querystring: ListOrganizationsQuerySchema,
        response: { 200: OrganizationPageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.listOfMyEnvironments(app.db, request.ctx, request.query),
  );

  app.get(
    '/organization-user',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Organisations'],
        summary: "Liens organisation-utilisateur : ceux de l'utilisateur, ou les membres d'une organisation",
        querystring: ListOrganizationUsersQuerySchema,
        response: { 200: OrganizationUserPageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.listLinks(app.db, request.ctx, request.query),
  );

  app.post(
    '/organization-user',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Organisations'],
        summary: "Rattache un compte existant à une organisation (superadmin de l'environnement, ROOT ; un administrateur invite)",
        body: CreateOrganizationUserBodySchema,
        response: { 201: OrganizationUserSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createLink(app.db, request.ctx, request.body)),
  );

  app.delete(
    '/organization-user/:id',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Organisations'],
        summary: "Retire un utilisateur d'une organisation",
        params: IdParamsSchema,
        description: "Jamais le dernier administrateur de l'organisation (409).",
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.deleteLink(app.db, request.ctx, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/organization-user/:id',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags: ['Organisations'],
        summary: "Change le rôle d'un membre dans son organisation : administrateur ou utilisateur (administrateur de l'organisation, superadmin de l'environnement, ROOT)",
        description: "Le dernier administrateur de l'organisation ne peut pas redevenir simple utilisateur (409).",
        params: IdParamsSchema,
        body: UpdateOrganizationUserBodySchema,
        response: { 200: OrganizationUserSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => service.updateLinkRole(app.db, request.ctx, request.params.id, request.body.role),
  );

  app.delete(
    '/organization-user/:id/two-factor',
    {
      config: { access: { roles: BROKERS, scope: 'organization' } },
      schema: {
        tags: ['Organisations'],
        summary: 'Désactive la double authentification d’un membre qui a perdu son application et ses codes de secours (superadmin de l’environnement, ROOT)',
        description:
          'Sa clé, ses codes de secours et ses navigateurs mémorisés sont supprimés, ses sessions fermées, et il en est averti par e-mail. Jamais la sienne (403) ; celle d’un superadmin : ROOT seulement (403) ; un membre sans double authentification : 409.',
        params: IdParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await resetMemberTwoFactor(app.db, request.ctx, request.params.id, { mail, baseUrl: mailBaseUrl(publicUrl, request), onSessionsEnded });
      return reply.status(204).send(null);
    },
  );
};
