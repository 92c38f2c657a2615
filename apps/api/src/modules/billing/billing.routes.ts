import {
  CheckoutBodySchema,
  CheckoutParamsSchema,
  CheckoutSchema,
  CurrentPlanSchema,
  EnvironmentPlanSchema,
  InvoiceListSchema,
  PlanIdParamsSchema,
  PlanListSchema,
  PlanSchema,
  UuidSchema,
} from '@flotte/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.js';
import { providerIdempotencyKey } from '../../lib/idempotency.js';
import * as service from './billing.service.js';
import { EVERY_ROLE, PUBLIC_ACCESS } from '../../plugins/route-access.js';

const tags = ['Facturation'];

/** The billing calls of a signed-in member (SPEC 3: /api/stripe/…, whichever provider is configured). */
export const billingRoutes: FastifyPluginAsyncZod<{ publicUrl: string | undefined }> = async (app, { publicUrl }) => {
  const baseUrl = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;

  app.get(
    '/stripe/plans',
    { config: { access: { roles: EVERY_ROLE, scope: 'platform' } }, schema: { tags, summary: 'Les offres, prix HT par véhicule et par mois', response: { 200: PlanListSchema, ...errorResponses(401) } } },
    () => service.listPlans(app.db),
  );

  app.get(
    '/stripe/product/:id',
    { config: { access: { roles: EVERY_ROLE, scope: 'platform' } }, schema: { tags, summary: 'Une offre par son identifiant', params: PlanIdParamsSchema, response: { 200: PlanSchema, ...errorResponses(400, 401, 404) } } },
    (request) => service.getPlan(app.db, request.params.id),
  );

  app.get(
    '/stripe/current-plan',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: "L'offre de l'organisation courante : la sienne, celle de son espace, ou aucune ; les fonctionnalités qu'elle ouvre",
        response: { 200: CurrentPlanSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => service.currentPlan(app.db, app.billing, request.ctx),
  );

  app.get(
    '/stripe/environment/current-plan',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: "L'espace qui facture l'organisation courante, ou null si elle paie elle-même",
        response: { 200: EnvironmentPlanSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => service.environmentPlan(app.db, request.ctx),
  );

  app.post(
    '/stripe/checkout',
    {
      config: { access: { roles: ['ADMIN'], scope: 'organization' }, idempotent: true },
      schema: {
        tags,
        summary: "Commence le paiement d'une offre (administrateur d'une organisation hors espace) : page Stripe ou page de paiement intégrée",
        body: CheckoutBodySchema,
        response: { 201: CheckoutSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createCheckout(app.db, app.billing, request.ctx, request.body, baseUrl(request), providerIdempotencyKey(request, request.ctx, 'checkout'))),
  );

  app.get(
    '/stripe/checkout/:sessionId',
    {
      config: { access: { roles: ['ADMIN'], scope: 'organization' } },
      schema: {
        tags,
        summary: "Un paiement de l'organisation, tel que le fournisseur le rapporte (page de confirmation)",
        params: CheckoutParamsSchema,
        response: { 200: CheckoutSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.readCheckout(app.db, app.billing, request.ctx, request.params.sessionId),
  );

  app.post(
    '/stripe/checkout/:sessionId/pay',
    {
      config: { access: { roles: ['ADMIN'], scope: 'organization' }, idempotent: true },
      schema: {
        tags,
        summary: 'Paie sur la page de paiement intégrée (fournisseur intégré seulement, sans Stripe)',
        params: CheckoutParamsSchema,
        response: { 200: CheckoutSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => service.payEmbedded(app.db, app.billing, request.ctx, request.params.sessionId),
  );

  app.get(
    '/stripe/invoices/:uuid/pdf',
    {
      config: { access: { roles: ['ADMIN'], scope: 'organization' } },
      schema: {
        tags,
        summary: 'Une facture du fournisseur intégré, en PDF (administrateur ; les factures Stripe ont leur propre PDF)',
        params: z.strictObject({ uuid: UuidSchema }),
        response: { 200: { description: 'La facture (application/pdf), en pièce jointe.', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } }, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await service.invoicePdfFile(app.db, request.ctx, request.params.uuid);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(pdf as unknown as string);
    },
  );

  app.get(
    '/stripe/invoices',
    { config: { access: { roles: ['ADMIN'], scope: 'organization' } }, schema: { tags, summary: "L'historique des paiements : les factures de l'organisation, la plus récente d'abord", response: { 200: InvoiceListSchema, ...errorResponses(401, 403) } } },
    (request) => service.listInvoices(app.db, request.ctx),
  );
};

/**
 * POST /api/stripe/webhook: Stripe's signed events (no bearer). The body is read raw — the
 * signature covers its exact bytes — and checked by the stripe package (300 s tolerance).
 */
export const billingWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));
  app.post(
    '/stripe/webhook',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Événements signés de Stripe (abonnements, factures, paiements), appliqués une seule fois',
        security: [],
        headers: z.object({ 'stripe-signature': z.string().max(2048).optional() }),
        response: { 200: z.object({ received: z.literal(true), result: z.enum(['applied', 'duplicate', 'stale', 'ignored']) }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
      const result = await service.receiveWebhook(app.db, app.billing, body, request.headers['stripe-signature'], request.log);
      return { received: true as const, result };
    },
  );
};
