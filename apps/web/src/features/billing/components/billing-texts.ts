import { type BillingInterval, BILLING_FEATURE_LABELS, type BillingFeature } from '@flotte/contract';

/** What every plan includes, before the features it unlocks. */
export const BASE_FEATURES = ['Tableau de bord et indicateurs', 'Sinistres, conducteurs et véhicules', 'Imports et exports'] as const;

export const INTERVAL_LABELS: Record<BillingInterval, string> = { month: 'Mensuel', year: 'Annuel' };
export const INTERVAL_PERIODS: Record<BillingInterval, string> = { month: 'par mois', year: 'par an' };

export const featureLabel = (feature: BillingFeature) => BILLING_FEATURE_LABELS[feature];

export const PAYER_ONLY = 'Seul un administrateur de l’organisation peut choisir une offre et consulter les paiements.';
