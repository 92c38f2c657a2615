import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { MAX_LENGTH, MAX_PAGE, queryInteger, SearchSchema, text, UuidSchema } from './primitives.js';

// Every validation message a user can read is French, on the API and in the web forms alike.
z.config(z.locales.fr());

export const UuidParamsSchema = z.object({ uuid: UuidSchema });
export type UuidParams = z.infer<typeof UuidParamsSchema>;

export const IdParamsSchema = z.object({ id: UuidSchema });

export const PAGE_SIZE = 10;
export const MAX_LIMIT = 1000;

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

/**
 * A form's choice of a register's records (the claim's vehicle, its driver…): it loads this many
 * at once; when the register holds more, the field searches the server as the user types.
 */
export const CHOICES_LIMIT = 200;

/** Filtered lists count at most this many rows: an exact count of a million claims costs seconds. */
export const COUNT_CAP = 1000;

export const ErrorDetailSchema = z.object({ path: z.string(), message: z.string() });

/** The one error envelope of the API; `message` is French and meant for the user. */
export const ErrorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  details: z.array(ErrorDetailSchema).optional(),
});
export type ApiError = z.infer<typeof ErrorSchema>;

export const AvatarSchema = z.object({ url: z.string().nullable() });

/** A French (or international, with its prefix) phone number, stored as E.164. */
export const PhoneSchema = text({ max: MAX_LENGTH.phone, label: 'Le téléphone' })
  .transform((value, ctx) => {
    if (value === '') return null;
    const parsed = parsePhoneNumberFromString(value, 'FR');
    if (!parsed || !parsed.isValid()) {
      ctx.addIssue({ code: 'custom', message: 'Numéro de téléphone invalide (ex. 06 12 34 56 78)' });
      return z.NEVER;
    }
    return parsed.number as string;
  })
  .nullable()
  .optional();

/** Formats an E.164 number the French way: 06 12 34 56 78, or international for other countries. */
export function formatPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === 'FR' ? parsed.formatNational() : parsed.formatInternational();
}

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

const parisDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
/** Today in France (YYYY-MM-DD), whatever the server's time zone. */
export function todayIso(now: Date = new Date()): string {
  return parisDate.format(now);
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
