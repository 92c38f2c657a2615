import {
  CreateEnvironmentBodySchema,
  CreateTierBodySchema,
  RootSpacePageSchema,
  TierListSchema,
  TierParamsSchema,
  TierSchema,
  UpdateTierBodySchema,
  EnvironmentMembershipSchema,
  EnvironmentPageSchema,
  EnvironmentSchema,
  EnvironmentSuperadminParamsSchema,
  EnvironmentUserParamsSchema,
  ListEnvironmentsQuerySchema,
  SuperadminSchema,
  UpdateEnvironmentBodySchema,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import * as service from './environments.service.js';
import { BROKERS, EVERY_ROLE, OPERATOR } from '../../plugins/route-access.js';

export type EnvironmentsRoutesOptions = {
  publicUrl: string | undefined;
  /** An account's roles or environments changed: the cached contexts must go (decision 008). */
  onContextChanged?: () => void;
};

export const environmentsRoutes: FastifyPluginAsyncZod<EnvironmentsRoutesOptions> = async (app, { publicUrl, onContextChanged }) => {
  const tags = ['Environnements'];

  app.get(
    '/root/spaces',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: {
        tags,
        summary: 'Les espaces, leurs superadmins, le palier en vigueur et leur usage (ROOT ; 404 pour les autres)',
        querystring: ListEnvironmentsQuerySchema,
        response: { 200: RootSpacePageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.listSpaces(app.db, request.ctx, request.query),
  );

  app.get(
    '/environment/:uuid/tier',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: {
        tags,
        summary: "Les paliers de l'espace, triés par date de début, et celui en vigueur (ROOT ; 404 pour les autres)",
        params: UuidParamsSchema,
        response: { 200: TierListSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.listTiers(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/environment/:uuid/tier',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: {
        tags,
        summary: "Ajoute un palier à l'espace : à partir de sa date de début (minuit, heure de Paris), prix par véhicule et par mois (ROOT)",
        params: UuidParamsSchema,
        body: CreateTierBodySchema,
        response: { 201: TierSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createTier(app.db, request.ctx, request.params.uuid, request.body)),
  );

  app.patch(
    '/environment/:uuid/tier/:tierUuid',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: {
        tags,
        summary: 'Modifie un palier (ROOT)',
        params: TierParamsSchema,
        body: UpdateTierBodySchema,
        response: { 200: TierSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    (request) => service.updateTier(app.db, request.ctx, request.params.uuid, request.params.tierUuid, request.body),
  );

  app.delete(
    '/environment/:uuid/tier/:tierUuid',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: { tags, summary: 'Supprime un palier (ROOT)', params: TierParamsSchema, response: { 204: z.null(), ...errorResponses(400, 401, 404) } },
    },
    async (request, reply) => {
      await service.deleteTier(app.db, request.ctx, request.params.uuid, request.params.tierUuid);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/environment',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Espaces gérés (tous pour ROOT)',
        querystring: ListEnvironmentsQuerySchema,
        response: { 200: EnvironmentPageSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => service.list(app.db, request.ctx, request.query),
  );

  app.get(
    '/environment/current',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'environment' } },
      schema: {
        tags,
        summary: "L'environnement de l'utilisateur (son rattachement, sinon celui de son organisation)",
        response: { 200: EnvironmentSchema, ...errorResponses(401, 404) },
      },
    },
    (request) => service.getCurrent(app.db, request.ctx),
  );

  app.get(
    '/environment/:uuid',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: { tags, summary: 'Un espace géré', params: UuidParamsSchema, response: { 200: EnvironmentSchema, ...errorResponses(400, 401, 404) } },
    },
    (request) => service.getOne(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/environment',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: {
        tags,
        summary: 'Crée un espace (ROOT), avec son premier superadmin invité par e-mail',
        body: CreateEnvironmentBodySchema,
        response: { 201: EnvironmentSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const created = await service.create(app.db, request.ctx, request.body, { service: app.mail, baseUrl: mailBaseUrl(publicUrl, request) });
      if (request.body.superadmin) onContextChanged?.();
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/environment/:uuid',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Modifie un espace (son superadmin, ROOT)',
        params: UuidParamsSchema,
        body: UpdateEnvironmentBodySchema,
        response: { 200: EnvironmentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => service.update(app.db, request.ctx, request.params.uuid, request.body),
  );

  app.post(
    '/environment-user/:uuid/join',
    {
      config: { access: { roles: OPERATOR, scope: 'platform' } },
      schema: {
        tags,
        summary: "ROOT rejoint l'espace {uuid} et y travaille",
        params: EnvironmentUserParamsSchema,
        response: { 200: EnvironmentMembershipSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.join(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/environment-user/:uuid/quit',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: "Quitte l'espace {uuid}",
        params: EnvironmentUserParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await service.quit(app.db, request.ctx, request.params.uuid);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/environment-user/:environmentUuid/superadmin',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'environment' } },
      schema: {
        tags,
        summary: "Le superadmin de l'environnement (aide et support), ou null",
        params: EnvironmentSuperadminParamsSchema,
        response: { 200: SuperadminSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => service.getSuperadmin(app.db, request.ctx, request.params.environmentUuid),
  );
};
