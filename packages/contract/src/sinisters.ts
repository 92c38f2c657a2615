import { exportQuerySchema } from './exports.js';
import { pageSchema, PaginatedSearchQuerySchema, QueryBooleanSchema, sortBySchema, registerRecordFields } from './common.js';
import { MAX_LENGTH, RESPONSIBILITY_RATES, SINISTER_SORT_COLUMNS, SINISTER_STATUSES } from './constants.js';
import { todayIso } from './format.js';
import { EurosSchema } from './money.js';
import { freeText, IsoDateSchema, isoDate, optionalText, reference, requiredRef, requiredText, UuidSchema } from './primitives.js';
import { claimAmounts, claimIssues, eurosToCents } from './rules.js';
import { z } from './zod.js';

export const GuaranteeSchema = z.object({ uuid: z.uuid(), label: z.string() });
export type Guarantee = z.infer<typeof GuaranteeSchema>;
export const GuaranteeListSchema = z.array(GuaranteeSchema);
/** POST /api/guarantees and PATCH /api/guarantees/{uuid} (ROOT). */
export const GuaranteeBodySchema = z.strictObject({ label: requiredText(MAX_LENGTH.label, 'Le libellé de la garantie') });
export type GuaranteeBody = z.input<typeof GuaranteeBodySchema>;
export const GUARANTEE_EXISTS_MESSAGE = 'Une garantie porte déjà ce libellé';

export const ResponsibilityRateSchema = z
  .union(RESPONSIBILITY_RATES.map((r) => z.literal(r)) as unknown as [z.ZodLiteral<0>, z.ZodLiteral<25>, z.ZodLiteral<50>, z.ZodLiteral<75>, z.ZodLiteral<100>], {
    error: 'Taux de responsabilité : 0, 25, 50, 75 ou 100 %',
  })
  .nullable();

export const SinisterStatusSchema = z.enum(SINISTER_STATUSES, { error: 'Statut : open (ouvert), inProgress (en cours), closed (clos) ou refused (refusé)' });

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
  /** Euros with cents: paidAmount + reserveAmount, what the loss ratio counts (DOMAIN.md). */
  totalCost: z.number(),
  /** Where the claim stands: open, inProgress, closed, refused (shown Ouvert, En cours, Clos, Refusé). */
  status: SinisterStatusSchema,
  /** The day the claim's file was opened (declared); null when not known. */
  openedAt: IsoDateSchema.nullable(),
  /** The day it was closed or refused; null while open or in progress. */
  closedAt: IsoDateSchema.nullable(),
  /** Euros already paid out. */
  paidAmount: z.number(),
  /** Euros reserved for what is still to pay (0 once closed or refused). */
  reserveAmount: z.number(),
  /** The circumstances, free text. */
  description: z.string().nullable(),
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
  /** One status (open, inProgress, closed, refused). */
  status: SinisterStatusSchema.optional(),
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
/** GET /api/sinister/export: the list's view as CSV or XLSX. */
export const ExportSinistersQuerySchema = exportQuerySchema(ListSinistersQuerySchema);
export type ListSinistersQuery = z.input<typeof ListSinistersQuerySchema>;

export const SinisterPageSchema = pageSchema(SinisterSchema).extend({
  /** Over every claim the query matches (not only the page, never capped). */
  sums: z.object({ totalCost: z.number() }),
});
export type SinisterPage = z.infer<typeof SinisterPageSchema>;

function pastDate(future: string) {
  return isoDate().refine((d) => d <= todayIso(), { error: future });
}

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
  /** Still accepted (SPEC): alone, it sets the reserve (paid kept), or the paid amount of a closed claim; with an amount, it must be paid + reserve. */
  totalCost: EurosSchema.optional(),
  guarantee: UuidSchema.nullable().optional(),
  status: SinisterStatusSchema.optional(),
  openedAt: pastDate("La date d'ouverture ne peut pas être dans le futur").nullable().optional(),
  closedAt: pastDate('La date de clôture ne peut pas être dans le futur').nullable().optional(),
  paidAmount: EurosSchema.optional(),
  reserveAmount: EurosSchema.optional(),
  description: freeText('La description'),
};

const cents = (euros: number | undefined) => (euros === undefined ? undefined : eurosToCents(euros));

/** A new claim's fields before the rules that read several of them (a form extends it, then checks them with checkNewClaim). */
export const SinisterFieldsSchema = z.strictObject(sinisterFields);

type NewClaim = Pick<z.output<typeof SinisterFieldsSchema>, 'sinisterDate' | 'status' | 'openedAt' | 'closedAt' | 'totalCost' | 'paidAmount' | 'reserveAmount'>;

/** A new claim's rules: its status (open by default), dates and amounts together. */
export function checkNewClaim(b: NewClaim, ctx: z.RefinementCtx) {
  const status = b.status ?? 'open';
  const amounts = claimAmounts({ totalCostCents: cents(b.totalCost), paidCents: cents(b.paidAmount), reserveCents: cents(b.reserveAmount) }, { paidCents: 0, reserveCents: 0 }, status);
  if ('path' in amounts) {
    ctx.addIssue({ code: 'custom', path: [amounts.path], message: amounts.message });
    return;
  }
  const state = { sinisterDate: b.sinisterDate, status, openedAt: b.openedAt ?? null, closedAt: b.closedAt ?? null, ...amounts };
  for (const issue of claimIssues(state)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
}

export const CreateSinisterBodySchema = SinisterFieldsSchema.superRefine(checkNewClaim);
export type CreateSinisterBody = z.input<typeof CreateSinisterBodySchema>;

/**
 * A claim as an imported row gives it (issue 13, SPEC 5): its reference required, the rest as the
 * forms check it; the vehicle and driver are found by plate and by name, not by id. The rules over
 * several fields (status, dates, amounts) apply once the row meets the stored claim.
 */
const { vehicule: _vehicule, driver: _driver, guarantee: _guarantee, ...claimOwnFields } = sinisterFields;
export const ImportSinisterRowSchema = z.strictObject({
  ...claimOwnFields,
  sinisterIntermediateRef: requiredText(MAX_LENGTH.reference, 'Le numéro de sinistre'),
  sinisterDate: sinisterFields.sinisterDate.optional(),
});

export const UpdateSinisterBodySchema = z.strictObject(sinisterFields).partial();
export type UpdateSinisterBody = z.input<typeof UpdateSinisterBodySchema>;
