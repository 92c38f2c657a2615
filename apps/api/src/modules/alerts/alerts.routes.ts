import {
  AlertDigestSettingSchema,
  AlertPageSchema,
  CreatePreventionAlertBodySchema,
  EnvironmentAlertParamsSchema,
  ListAlertsQuerySchema,
  PreventionAlertDetailSchema,
  PreventionAlertListSchema,
  UnreadAlertsSchema,
  UpdateAlertDigestBodySchema,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { type alertJobs, queueEvaluation } from './alerts.jobs.js';
import { requireFeature } from '../billing/feature-gate.js';
import * as service from './alerts.service.js';
import { BROKERS, EVERY_ROLE } from '../../plugins/route-access.js';

export const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Alertes prévention'];
  // The organization's alerts are a feature of the plan (decision 044); the broker's writing of them is not.
  const alertsFeature = requireFeature(app, 'alerts');

  app.get(
    '/alert',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      preHandler: alertsFeature,
      schema: {
        tags,
        summary: "Alertes de l'organisation courante (rédigées et automatiques), les plus récentes d'abord",
        querystring: ListAlertsQuerySchema,
        response: { 200: AlertPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => service.listAlerts(app.db, request.ctx, request.query),
  );

  app.get(
    '/alert/unread-count',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      preHandler: alertsFeature,
      schema: { tags, summary: "Nombre d'alertes en cours non lues par l'utilisateur (badge du menu)", response: { 200: UnreadAlertsSchema, ...errorResponses(401, 403) } },
    },
    (request) => service.unreadCount(app.db, request.ctx),
  );

  app.post(
    '/alert/read-all',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      preHandler: alertsFeature,
      schema: { tags, summary: "Marque toutes les alertes de l'organisation comme lues", response: { 200: UnreadAlertsSchema, ...errorResponses(401, 403) } },
    },
    (request) => service.markAllRead(app.db, request.ctx),
  );

  app.post(
    '/alert/:uuid/read',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      preHandler: alertsFeature,
      schema: {
        tags,
        summary: 'Marque une alerte comme lue',
        params: UuidParamsSchema,
        response: { 204: z.null().meta({ description: 'Lue' }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.markRead(app.db, request.ctx, request.params.uuid);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/environment/:uuid/alert',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: "Alertes rédigées pour les organisations de l'environnement (ses superadmins)",
        params: UuidParamsSchema,
        response: { 200: PreventionAlertListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.listPreventionAlerts(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/environment/:uuid/alert',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: "Rédige une alerte de prévention pour des organisations de l'environnement, publiée maintenant ou à une date",
        params: UuidParamsSchema,
        body: CreatePreventionAlertBodySchema,
        response: { 201: PreventionAlertDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createPreventionAlert(app.db, request.ctx, request.params.uuid, request.body)),
  );

  app.get(
    '/environment/:uuid/alert/:alertUuid',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Une alerte rédigée et qui, dans chaque organisation, l’a lue',
        params: EnvironmentAlertParamsSchema,
        response: { 200: PreventionAlertDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.getPreventionAlert(app.db, request.ctx, request.params.uuid, request.params.alertUuid),
  );

  app.delete(
    '/environment/:uuid/alert/:alertUuid',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Retire une alerte rédigée (de toutes les organisations)',
        params: EnvironmentAlertParamsSchema,
        response: { 204: z.null().meta({ description: 'Retirée' }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.deletePreventionAlert(app.db, request.ctx, request.params.uuid, request.params.alertUuid);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/environment/:uuid/alert-digest',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Le récapitulatif quotidien des alertes automatiques des clients : reçu ou non (le superadmin appelant)',
        params: UuidParamsSchema,
        response: { 200: AlertDigestSettingSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.getDigestSetting(app.db, request.ctx, request.params.uuid),
  );

  app.put(
    '/environment/:uuid/alert-digest',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Active ou désactive le récapitulatif quotidien des alertes pour le superadmin appelant',
        params: UuidParamsSchema,
        body: UpdateAlertDigestBodySchema,
        response: { 200: AlertDigestSettingSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.setDigestSetting(app.db, request.ctx, request.params.uuid, request.body.enabled),
  );
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The routes whose writes may raise or close an automatic alert: claims, drivers, vehicles, periods, limits, documents. */
const RELEVANT_ROUTE = /^\/api\/(sinister|driver|vehicule|indicators|dashboard\/config|document)(\/|$)/;

/**
 * onResponse hook of the protected routes: after a successful relevant write (committed: the
 * answer is out), the organization's alerts are evaluated through the job queue, never in the
 * request (decision 037). A lost send is made up for by the daily run.
 */
export function evaluateAlertsAfterWrites(app: { jobs: { send: Parameters<typeof queueEvaluation>[0] } }, job: ReturnType<typeof alertJobs>['evaluate']) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const organizationUuid = request.ctx?.organizationUuid;
    if (organizationUuid && WRITES.has(request.method) && reply.statusCode < 300 && RELEVANT_ROUTE.test(request.routeOptions.url ?? '')) {
      queueEvaluation(app.jobs.send, job, organizationUuid).catch((error: unknown) => request.log.warn({ err: error }, "alertes : évaluation non mise en file (l'évaluation quotidienne la rattrapera)"));
    }
    done();
  };
}
