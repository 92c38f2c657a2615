import { OnboardingCompanyBodySchema, OnboardingStateSchema, OnboardingStepBodySchema } from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas.js';
import * as service from './onboarding.service.js';
import { EVERY_ROLE } from '../../plugins/route-access.js';

export type OnboardingRoutesOptions = { onContextChanged: () => void };

/** The onboarding of a signed-up user (issue 15, decision 033): welcome → company → members → finish. */
export const onboardingRoutes: FastifyPluginAsyncZod<OnboardingRoutesOptions> = async (app, { onContextChanged }) => {
  const tags = ['Accueil'];

  app.get(
    '/onboarding',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Où en est l’accueil de l’utilisateur (« done » : rien à faire) et l’organisation créée en chemin',
        response: { 200: OnboardingStateSchema, ...errorResponses(401, 404) },
      },
    },
    (request) => service.getState(app.db, request.ctx),
  );

  app.put(
    '/onboarding/step',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Retient l’étape atteinte (une reconnexion y reprend) ; « done » termine l’accueil',
        body: OnboardingStepBodySchema,
        response: { 200: OnboardingStateSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    (request) => service.setStep(app.db, request.ctx, request.body),
  );

  app.post(
    '/onboarding/company',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'self' } },
      schema: {
        tags,
        summary: 'Crée l’organisation d’un utilisateur qui n’en a pas (SIREN ou SIRET vérifié) : il en devient administrateur',
        description: '409 si l’utilisateur est déjà membre d’une organisation.',
        body: OnboardingCompanyBodySchema,
        response: { 201: OnboardingStateSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createCompany(app.db, request.ctx, request.body, onContextChanged)),
  );
};
