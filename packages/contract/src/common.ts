import { MAX_LENGTH, MAX_LIMIT, MAX_PAGE, PAGE_SIZE } from './constants.js';
import { toE164 } from './phones.js';
import { queryInteger, SearchSchema, text, UuidSchema } from './primitives.js';
import { z } from './zod.js';

export const UuidParamsSchema = z.object({ uuid: UuidSchema });
export type UuidParams = z.infer<typeof UuidParamsSchema>;

export const IdParamsSchema = z.object({ id: UuidSchema });

export const PaginationQuerySchema = z.object({
  page: queryInteger({ min: 1, max: MAX_PAGE, label: 'La page', minMessage: 'La page commence à 1' }).default(1),
  limit: queryInteger({ min: 1, max: MAX_LIMIT, label: 'La limite' }).default(PAGE_SIZE),
});

export const SearchQuerySchema = z.object({
  search: SearchSchema,
});

export const PaginatedSearchQuerySchema = PaginationQuerySchema.extend(SearchQuerySchema.shape);
export type PaginatedSearchQuery = z.infer<typeof PaginatedSearchQuerySchema>;

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.number().int(),
    nbOfPages: z.number().int(),
    total: z.number().int(),
    /** True when a search or filter matched more than COUNT_CAP rows: total is then COUNT_CAP ("plus de …"). */
    totalIsCapped: z.boolean().optional(),
  });
}

export const ErrorDetailSchema = z.object({ path: z.string(), message: z.string() });

/** The one error envelope of the API; `message` is French and meant for the user. */
export const ErrorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  details: z.array(ErrorDetailSchema).optional(),
  /** Every 5xx: the request's id (also its X-Request-Id header), the « Référence » a user quotes to support. */
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof ErrorSchema>;

export const AvatarSchema = z.object({ url: z.string().nullable() });

/** A French (or international, with its prefix) phone number, stored as E.164. */
export const PhoneSchema = text({ max: MAX_LENGTH.phone, label: 'Le téléphone' })
  .transform((value, ctx) => {
    if (value === '') return null;
    const e164 = toE164(value);
    if (e164 === null) {
      ctx.addIssue({ code: 'custom', message: 'Numéro de téléphone invalide (ex. 06 12 34 56 78)' });
      return z.NEVER;
    }
    return e164;
  })
  .nullable()
  .optional();

/** A boolean query parameter: true/false/1/0 (absent = undefined). */
export const QueryBooleanSchema = z
  .enum(['true', 'false', '1', '0'], { error: 'Valeur attendue : true ou false' })
  .transform((v) => v === 'true' || v === '1')
  .optional();

/** sortBy: a column of the allow-list, '-column' for descending. */
export function sortBySchema<const T extends readonly [string, ...string[]]>(columns: T) {
  const values = [...columns, ...columns.map((c) => `-${c}`)] as [string, ...string[]];
  return z
    .enum(values, { error: `Tri invalide : colonnes permises ${columns.join(', ')} (préfixe - pour décroissant)` })
    .optional() as unknown as z.ZodOptional<z.ZodType<T[number] | `-${T[number]}`>>;
}

/** Archive/restore lists: the counts that stay true whatever the filters. */
export const ArchiveCountsSchema = z.object({ nbOfArchived: z.number().int(), nbInActivity: z.number().int() });

export const DocumentRefSchema = z.object({ uuid: z.uuid(), name: z.string() });

/** The fields a register's record (driver, vehicle, claim…) ends with. */
export const registerRecordFields = {
  /** Filled by the document management issue; empty until then. */
  documents: z.array(DocumentRefSchema),
  isArchived: z.boolean(),
  archivedAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
};
