import { ArchiveCountsSchema, pageSchema, PaginatedSearchQuerySchema, QueryBooleanSchema, sortBySchema, registerRecordFields } from './common.js';
import { MAX_LENGTH, VEHICULE_SORT_COLUMNS } from './constants.js';
import { exportQuerySchema } from './exports.js';
import { VEHICULE_TYPES, type VehiculeTypeCode } from './labels.js';
import { normalizePlate } from './plates.js';
import { IsoDateSchema, requiredText, SearchSchema, text } from './primitives.js';
import { vehiculeDateIssues } from './rules.js';
import { z } from './zod.js';

const TYPE_CODES = VEHICULE_TYPES.map((t) => t.code) as unknown as [VehiculeTypeCode, ...VehiculeTypeCode[]];
export const VehiculeTypeSchema = z.enum(TYPE_CODES, {
  error: (issue) => (issue.input === undefined || issue.input === null || issue.input === '' ? 'La catégorie est obligatoire' : 'Catégorie de véhicule inconnue'),
});

export const VehiculeSchema = z.object({
  uuid: z.uuid(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  type: VehiculeTypeSchema.nullable(),
  /** Date of first registration (field B of the registration certificate). */
  circulationDate: IsoDateSchema.nullable(),
  entryDate: IsoDateSchema.nullable(),
  exitDate: IsoDateSchema.nullable(),
  /** Normalised (upper-case, no separators); formatPlate() shows AB-123-CD. Null on a draft. */
  immatriculation: z.string().nullable(),
  /** Set when the plate is not a usual French one: accepted, but worth a second look. */
  immatriculationWarning: z.string().nullable(),
  ...registerRecordFields,
});
export type Vehicule = z.infer<typeof VehiculeSchema>;

/** Filters shared by the list and the bulk category change. */
export const VehiculeFilterQuerySchema = z.object({
  search: SearchSchema,
  withArchived: QueryBooleanSchema,
  onlyArchived: QueryBooleanSchema,
  /** Comma-separated category codes, e.g. VP,VUL. */
  types: text({ max: MAX_LENGTH.codeList, label: 'Les catégories' })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const codes = v.split(',').map((c) => c.trim()).filter(Boolean);
      const unknown = codes.filter((c) => !TYPE_CODES.includes(c as VehiculeTypeCode));
      if (unknown.length > 0) {
        ctx.addIssue({ code: 'custom', message: `Catégorie inconnue : ${unknown.join(', ')}` });
        return z.NEVER;
      }
      return codes as VehiculeTypeCode[];
    }),
  /** Vehicles present in the fleet at some point between start and end (entryDate/exitDate). */
  start: IsoDateSchema.optional(),
  end: IsoDateSchema.optional(),
});

/** A period is read from its start to its end. */
const periodInOrder: [(q: { start?: string; end?: string }) => boolean, { error: string; path: string[] }] = [
  (q) => !q.start || !q.end || q.start <= q.end,
  { error: 'La date de début doit précéder la date de fin', path: ['end'] },
];

export const ListVehiculesQuerySchema = PaginatedSearchQuerySchema.extend(VehiculeFilterQuerySchema.shape)
  .extend({ sortBy: sortBySchema(VEHICULE_SORT_COLUMNS) })
  .refine(...periodInOrder);
export type ListVehiculesQuery = z.input<typeof ListVehiculesQuerySchema>;
/** GET /api/vehicule/export: the list's view as CSV or XLSX. */
export const ExportVehiculesQuerySchema = exportQuerySchema(ListVehiculesQuerySchema);

export const VehiculePageSchema = pageSchema(VehiculeSchema).extend(ArchiveCountsSchema.shape);
export type VehiculePage = z.infer<typeof VehiculePageSchema>;

/** A vehicle as a form offers it (the claim's vehicle): the fleet's vehicles, no draft, none archived. */
export const VehiculeChoiceSchema = z.object({ uuid: z.uuid(), immatriculation: z.string(), brand: z.string().nullable(), model: z.string().nullable() });
export type VehiculeChoice = z.infer<typeof VehiculeChoiceSchema>;
/** Plate, brand or model; the plate in any spelling. Sorted by plate. */
export const ListVehiculeChoicesQuerySchema = PaginatedSearchQuerySchema.extend({ sortBy: sortBySchema(['immatriculation'] as const) });
export const VehiculeChoicePageSchema = pageSchema(VehiculeChoiceSchema);

const optionalDate = IsoDateSchema.nullable().optional();

/**
 * A plate as typed ('ab-123 cd'), stored and compared normalised (AB123CD): letters and digits
 * only once spaces, dashes and dots are gone.
 */
export const PlateSchema = requiredText(20, "L'immatriculation")
  .transform(normalizePlate)
  .pipe(
    z
      .string()
      .min(1, { error: "L'immatriculation est obligatoire", abort: true })
      .regex(/^[\p{L}\p{N}]+$/u, { error: "L'immatriculation ne peut contenir que des lettres et des chiffres" }),
  );

const vehiculeFields = {
  brand: requiredText(80, 'La marque'),
  model: requiredText(80, 'Le modèle'),
  type: VehiculeTypeSchema,
  immatriculation: PlateSchema,
  circulationDate: optionalDate,
  entryDate: optionalDate,
  exitDate: optionalDate,
};

type DateFields = { circulationDate?: string | null; entryDate?: string | null; exitDate?: string | null };
function checkDates(v: DateFields, ctx: z.RefinementCtx) {
  for (const issue of vehiculeDateIssues(v)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
}

export const CreateVehiculeBodySchema = z.strictObject(vehiculeFields).superRefine(checkDates);
export type CreateVehiculeBody = z.input<typeof CreateVehiculeBodySchema>;

export const UpdateVehiculeBodySchema = z.strictObject(vehiculeFields).partial().superRefine(checkDates);

/**
 * A vehicle as an imported row gives it (issue 13, SPEC 5): brand, model and plate required, the
 * category when the file has it; the same field rules as the forms.
 */
export const ImportVehiculeRowSchema = z.strictObject({ ...vehiculeFields, type: VehiculeTypeSchema.optional() }).superRefine(checkDates);
/** Compare mode (SPEC 5): only the plate is required. */
export const CompareVehiculeRowSchema = z.strictObject(vehiculeFields).partial().extend({ immatriculation: PlateSchema }).superRefine(checkDates);
export type UpdateVehiculeBody = z.input<typeof UpdateVehiculeBodySchema>;

export const ArchiveVehiculeQuerySchema = z.object({
  /** The exit date recorded when archiving; today when absent. */
  exitDate: IsoDateSchema.optional(),
});

export const CategoryParamsSchema = z.object({ id: VehiculeTypeSchema });
export const UpdateCategoryQuerySchema = VehiculeFilterQuerySchema.refine(...periodInOrder);
export const UpdateCategoryResponseSchema = z.object({ updated: z.number().int() });
