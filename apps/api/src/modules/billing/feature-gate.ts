import type { BillingFeature } from '@flotte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../errors.js';
import { isRoot } from '../../lib/auth-context.js';
import { organizationFeatures } from './billing.service.js';

const LOCKED_SUBJECTS: Record<BillingFeature, string> = {
  documents: 'La gestion documentaire n’est pas incluse',
  alerts: 'Les alertes prévention ne sont pas incluses',
};

/** « La gestion documentaire n’est pas incluse dans l’offre de votre organisation… » */
export function featureLockedMessage(feature: BillingFeature): string {
  return `${LOCKED_SUBJECTS[feature]} dans l’offre de votre organisation : un administrateur peut en choisir une dans Paramètres, section « Abonnement ».`;
}

/**
 * A route's preHandler for a feature a plan unlocks (decision 044): the menu shows it locked, and
 * the API refuses it (403, in French) to an organization whose plan lacks it. An organization in
 * an environment has every feature; ROOT (the operator) is never refused.
 */
export function requireFeature(app: FastifyInstance, feature: BillingFeature) {
  return async (request: FastifyRequest) => {
    const ctx = request.ctx;
    if (!ctx?.organizationUuid || isRoot(ctx)) return;
    const features = await organizationFeatures(app.db, ctx.organizationUuid);
    if (!features.includes(feature)) throw new ForbiddenError(featureLockedMessage(feature));
  };
}
