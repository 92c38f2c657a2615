import { EurosSchema } from './money.js';
import { integer, isoDate, UuidSchema } from './primitives.js';
import { z } from './zod.js';

/** At most this many periods in one POST /api/indicators (a contract's whole history fits). */
export const INDICATORS_MAX_PER_CALL = 50;

/** One insurance period of the organization (DOMAIN.md "Periods"): JSON in euros, stored in cents. */
export const IndicatorSchema = z.object({
  uuid: z.uuid(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  motorsCount: z.number().int(),
  /** Premium earned for the period, euros with cents. */
  cashReceived: z.number(),
  previousIndicatorUuid: z.uuid().nullable(),
});
export type Indicator = z.infer<typeof IndicatorSchema>;

export const IndicatorListSchema = z.array(IndicatorSchema);
export const CurrentIndicatorSchema = IndicatorSchema.nullable();

/** A period as the form sends it: without uuid it is created, with one it is updated. */
export const IndicatorInputSchema = z
  .strictObject({
    uuid: UuidSchema.optional(),
    startDate: isoDate({ missing: 'La date de début est obligatoire' }),
    endDate: isoDate({ missing: 'La date de fin est obligatoire' }),
    motorsCount: integer({ min: 0, max: 1_000_000, label: 'Le nombre de véhicules', minMessage: 'Le nombre de véhicules ne peut pas être négatif' }),
    cashReceived: EurosSchema,
    previousIndicatorUuid: UuidSchema.nullable().optional(),
  })
  .refine((p) => p.startDate <= p.endDate, { error: 'La date de fin doit suivre la date de début', path: ['endDate'] });
export type IndicatorInput = z.infer<typeof IndicatorInputSchema>;

export const SaveIndicatorsBodySchema = z.strictObject({
  currentIndicators: z
    .array(IndicatorInputSchema, { error: 'Liste de périodes attendue' })
    .max(INDICATORS_MAX_PER_CALL, { error: `${INDICATORS_MAX_PER_CALL} périodes au plus par envoi` }),
});
export type SaveIndicatorsBody = z.infer<typeof SaveIndicatorsBodySchema>;

export const IndicatorParamsSchema = z.strictObject({ id: UuidSchema });
