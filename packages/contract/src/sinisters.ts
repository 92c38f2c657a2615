import { pageSchema, PaginatedSearchQuerySchema, QueryBooleanSchema, sortBySchema, registerRecordFields } from './common.js';
import { MAX_LENGTH, RESPONSIBILITY_RATES, SINISTER_SORT_COLUMNS } from './constants.js';
import { todayIso } from './format.js';
import { EurosSchema } from './money.js';
import { IsoDateSchema, isoDate, optionalText, reference, requiredRef, UuidSchema } from './primitives.js';
import { z } from './zod.js';

export const GuaranteeSchema = z.object({ uuid: z.uuid(), label: z.string() });
export type Guarantee = z.infer<typeof GuaranteeSchema>;
export const GuaranteeListSchema = z.array(GuaranteeSchema);

export const ResponsibilityRateSchema = z
  .union(RESPONSIBILITY_RATES.map((r) => z.literal(r)) as unknown as [z.ZodLiteral<0>, z.ZodLiteral<25>, z.ZodLiteral<50>, z.ZodLiteral<75>, z.ZodLiteral<100>], {
    error: 'Taux de responsabilité : 0, 25, 50, 75 ou 100 %',
  })
  .nullable();

export const SinisterSchema = z.object({
  uuid: z.uuid(),
  /** The insurer's or broker's claim number. */
  sinisterIntermediateRef: z.string().nullable(),
  sinisterDate: IsoDateSchema,
  city: z.string().nullable(),
  ida: z.boolean(),
  hasHumanInjury: z.boolean(),
  damagedVehicule: z.boolean(),
  isThirdImplicated: z.boolean(),
  isDeclared: z.boolean(),
  /** 0, 25, 50, 75, 100, or null when not known yet. */
  responsibilityRate: ResponsibilityRateSchema,
  /** The vehicle's plate (normalised). */
  immatriculation: z.string().nullable(),
  vehicule: z.object({ uuid: z.uuid(), immatriculation: z.string().nullable(), brand: z.string().nullable(), model: z.string().nullable() }).nullable(),
  driver: z.object({ uuid: z.uuid(), firstName: z.string(), lastName: z.string() }).nullable(),
  /** Euros with cents (paid amounts and reserves). */
  totalCost: z.number(),
  guarantee: GuaranteeSchema.nullable(),
  ...registerRecordFields,
});
export type Sinister = z.infer<typeof SinisterSchema>;

export const ListSinistersQuerySchema = PaginatedSearchQuerySchema.extend({
  /** Guarantee uuid (the spelling is the API's). */
  garantee: UuidSchema.optional(),
  showDeclared: QueryBooleanSchema,
  showNotDeclared: QueryBooleanSchema,
  startDate: IsoDateSchema.optional(),
  endDate: IsoDateSchema.optional(),
  hasHumanInjury: QueryBooleanSchema,
  damagedVehicule: QueryBooleanSchema,
  isThirdImplicated: QueryBooleanSchema,
  responsible: z.enum(['me', 'other'], { error: 'responsible : me ou other' }).optional(),
  /** Claims of one vehicle (uuid): what a permanent deletion of that vehicle leaves without its link. */
  vehicule: UuidSchema.optional(),
  /** Claims of one driver (uuid). */
  driver: UuidSchema.optional(),
  withArchived: QueryBooleanSchema,
  onlyArchived: QueryBooleanSchema,
  sortBy: sortBySchema(SINISTER_SORT_COLUMNS),
}).refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
  error: 'La date de début doit précéder la date de fin',
  path: ['endDate'],
});
export type ListSinistersQuery = z.input<typeof ListSinistersQuerySchema>;

export const SinisterPageSchema = pageSchema(SinisterSchema);
export type SinisterPage = z.infer<typeof SinisterPageSchema>;

const sinisterFields = {
  sinisterIntermediateRef: reference('La référence'),
  sinisterDate: isoDate({ missing: 'La date du sinistre est obligatoire' }).refine((d) => d <= todayIso(), {
    error: 'La date du sinistre ne peut pas être dans le futur',
  }),
  city: optionalText(MAX_LENGTH.label, 'La ville'),
  ida: z.boolean({ error: 'Valeur attendue : oui ou non' }).optional(),
  hasHumanInjury: z.boolean({ error: 'Valeur attendue : oui ou non' }).optional(),
  damagedVehicule: z.boolean({ error: 'Valeur attendue : oui ou non' }).optional(),
  isThirdImplicated: z.boolean({ error: 'Valeur attendue : oui ou non' }).optional(),
  isDeclared: z.boolean({ error: 'Valeur attendue : oui ou non' }).optional(),
  responsibilityRate: ResponsibilityRateSchema.optional(),
  vehicule: requiredRef('Le véhicule est obligatoire'),
  driver: UuidSchema.nullable().optional(),
  totalCost: EurosSchema.optional(),
  guarantee: UuidSchema.nullable().optional(),
};

export const CreateSinisterBodySchema = z.strictObject(sinisterFields);
export type CreateSinisterBody = z.input<typeof CreateSinisterBodySchema>;

export const UpdateSinisterBodySchema = z.strictObject(sinisterFields).partial();
export type UpdateSinisterBody = z.input<typeof UpdateSinisterBodySchema>;
