import { LIMIT_PERCENTAGE_MAX } from './constants.js';
import { QueryBooleanSchema } from './common.js';
import { integer, IsoDateSchema, UuidSchema } from './primitives.js';
import { z } from './zod.js';

/**
 * The window of every dashboard figure (DOMAIN.md): both days included; startDate defaults to six
 * months before today and endDate to today (SPEC 9). isDeclared: true, false, or absent for all.
 */
export const DashboardWindowQuerySchema = z
  .strictObject({
    startDate: IsoDateSchema.optional(),
    endDate: IsoDateSchema.optional(),
    isDeclared: QueryBooleanSchema,
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    error: 'La date de début doit précéder la date de fin',
    path: ['endDate'],
  });
export type DashboardWindowQuery = z.input<typeof DashboardWindowQuerySchema>;

/** Euros with cents (as a claim's totalCost); ratio in percent, exact, null without premiums. */
export const LossRatioSchema = z.object({
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  costOfClaims: z.number(),
  earnedPremiums: z.number(),
  ratio: z.number().nullable(),
});
export type LossRatio = z.infer<typeof LossRatioSchema>;

export const ClaimFrequencyQuerySchema = z.strictObject({
  /** A period's uuid; the current period when absent. */
  indicator: UuidSchema.optional(),
  isDeclared: QueryBooleanSchema,
});
export type ClaimFrequencyQuery = z.input<typeof ClaimFrequencyQuerySchema>;

export const ClaimFrequencySchema = z.object({
  indicatorUuid: z.uuid(),
  claims: z.number().int(),
  motors: z.number().int(),
  /** claims / motors × 100, exact; null when the period has no vehicle. */
  frequency: z.number().nullable(),
});
export type ClaimFrequency = z.infer<typeof ClaimFrequencySchema>;

/** The half-difference of one period (DOMAIN.md, product rule). */
export const HalfDifferenceSchema = z.object({
  indicatorUuid: z.uuid(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  /** The day N1 is counted on: endDate, or today for the current period. */
  countedOn: z.iso.date(),
  isCurrent: z.boolean(),
  n0: z.number().int(),
  n1: z.number().int(),
  /** cashReceived / motorsCount, euros rounded to the cent; null when motorsCount is 0. */
  unitPremium: z.number().nullable(),
  /** (N1 − N0) / 2 vehicles. */
  halfDifference: z.number(),
  /** (N1 − N0) / 2 × cashReceived / motorsCount, euros rounded to the cent; positive: the company owes. */
  regularisation: z.number().nullable(),
});
export type HalfDifference = z.infer<typeof HalfDifferenceSchema>;
export const HalfDifferenceListSchema = z.array(HalfDifferenceSchema);
export const CurrentHalfDifferenceSchema = HalfDifferenceSchema.nullable();

export const DashboardConfigSchema = z.object({
  lossRatioPercentage: z.number().int(),
  claimFrequencyPercentage: z.number().int(),
});
export type DashboardConfig = z.infer<typeof DashboardConfigSchema>;

export const UpdateDashboardConfigBodySchema = z.strictObject({
  lossRatioPercentage: integer({ min: 1, max: LIMIT_PERCENTAGE_MAX, label: 'La limite du S/P', minMessage: 'La limite du S/P doit être d’au moins 1 %' }),
  claimFrequencyPercentage: integer({ min: 1, max: LIMIT_PERCENTAGE_MAX, label: 'La limite de la fréquence', minMessage: 'La limite de la fréquence doit être d’au moins 1 %' }),
});
export type UpdateDashboardConfigBody = z.infer<typeof UpdateDashboardConfigBodySchema>;

/** A count and a cost (euros) of claims. */
const tally = { claims: z.number().int(), cost: z.number() };

export const MonthlyClaimsSchema = z.array(z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), ...tally }));
export const ClaimsByGuaranteeSchema = z.array(z.object({ guaranteeUuid: z.uuid().nullable(), label: z.string().nullable(), ...tally }));
export const RESPONSIBILITY_BUCKETS = ['atFault', 'shared', 'notAtFault', 'unknown'] as const;
export const ClaimsByResponsibilitySchema = z.array(z.object({ responsibility: z.enum(RESPONSIBILITY_BUCKETS), ...tally }));
export const ClaimsByCategorySchema = z.array(z.object({ type: z.string().nullable(), ...tally }));
export const TopDriversSchema = z.array(
  z.object({ driverUuid: z.uuid(), firstName: z.string(), lastName: z.string(), atFaultClaims: z.number().int(), cost: z.number() }),
);
export const FleetSizeSchema = z.array(z.object({ date: z.iso.date(), vehicles: z.number().int() }));

/** The renewal report (a PDF) covers the dashboard's window, with the same filters. */
export const RenewalReportQuerySchema = DashboardWindowQuerySchema;
export type RenewalReportQuery = DashboardWindowQuery;
