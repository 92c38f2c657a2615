import { LIMIT_WARNING_POINTS } from './constants.js';

// Prevention alerts (issue 16, decision 037): the constants and French words the web shows outside
// its forms. Free of zod, so that a screen importing them does not bring the schemas (decision 015).

/** How pressing an alert is, least to most. */
export const ALERT_SEVERITIES = ['information', 'attention', 'urgent'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERT_SEVERITY_LABELS: Readonly<Record<AlertSeverity, string>> = {
  information: 'Information',
  attention: 'Attention',
  urgent: 'Urgent',
};

/** The product's own alerts (DOMAIN.md "Limits management", issue 16), each raised once per cause. */
export const AUTOMATIC_ALERT_RULES = [
  'lossRatioAbove',
  'lossRatioNear',
  'frequencyAbove',
  'frequencyNear',
  'driverAtFault',
  'glassBreakage',
  'bodilyInjury',
  'notDeclared',
  'unchanged',
  'documentExpiry',
] as const;
export type AutomaticAlertRule = (typeof AUTOMATIC_ALERT_RULES)[number];
export const AUTOMATIC_ALERT_RULE_LABELS: Readonly<Record<AutomaticAlertRule, string>> = {
  lossRatioAbove: 'S/P au-dessus de la limite',
  lossRatioNear: 'S/P proche de la limite',
  frequencyAbove: 'Fréquence au-dessus de la limite',
  frequencyNear: 'Fréquence proche de la limite',
  driverAtFault: 'Conducteur responsable de plusieurs sinistres',
  glassBreakage: 'Bris de glace répétés',
  bodilyInjury: 'Sinistre corporel',
  notDeclared: 'Sinistre non déclaré',
  unchanged: 'Sinistre sans évolution',
  documentExpiry: 'Document à renouveler',
};

/** The rules a broker's written alert may target: the organizations with such an automatic alert open. */
export const ALERT_TARGET_RULES = ['lossRatioAbove', 'frequencyAbove', 'limitReached'] as const;
export type AlertTargetRule = (typeof ALERT_TARGET_RULES)[number];
export const ALERT_TARGET_RULE_LABELS: Readonly<Record<AlertTargetRule, string>> = {
  lossRatioAbove: 'S/P au-dessus de sa limite',
  frequencyAbove: 'Fréquence au-dessus de sa limite',
  limitReached: 'S/P ou fréquence au-dessus de sa limite ou à moins de 10 points',
};

/** The thresholds of the automatic rules. */
export const ALERT_RULES = {
  /** At-fault claims of one driver within AT_FAULT_MONTHS. */
  atFaultClaims: 2,
  atFaultMonths: 12,
  /** Glass-breakage claims within GLASS_MONTHS. */
  glassClaims: 3,
  glassMonths: 6,
  /** Days after its date a claim should have been declared. */
  notDeclaredDays: 30,
  /** Days without any change on an open claim. */
  unchangedDays: 60,
} as const;

export const ALERT_TITLE_MAX = 200;
export const ALERT_BODY_MAX = 10_000;
/** Organizations a written alert may name one by one. */
export const ALERT_TARGET_ORGANIZATIONS_MAX = 500;

/** Where a figure stands against its limit (DOMAIN.md "Limits management"). */
export type LimitStatus = 'below' | 'near' | 'above' | 'unknown';

/**
 * Green below the limit, orange within LIMIT_WARNING_POINTS (10) points of it (the limit itself
 * included), red above it; 'unknown' without a figure (no premium, no vehicle). Judged on the exact
 * figure. The dashboard colours its cards with it and the automatic alerts are raised on it.
 */
export function limitStatus(value: number | null, limit: number): LimitStatus {
  if (value === null) return 'unknown';
  if (value > limit) return 'above';
  if (value >= limit - LIMIT_WARNING_POINTS) return 'near';
  return 'below';
}
