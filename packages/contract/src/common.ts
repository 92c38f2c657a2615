import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

// Every validation message a user can read is French, on the API and in the web forms alike.
z.config(z.locales.fr());

export const UuidSchema = z.uuid({ error: 'Identifiant invalide' });

/** A required link to another record: 'Le véhicule est obligatoire' when missing, invalid otherwise. */
export function requiredRef(missing: string) {
  return z.uuid({ error: (issue) => (issue.input === undefined || issue.input === null || issue.input === '' ? missing : 'Identifiant invalide') });
}

export const UuidParamsSchema = z.object({ uuid: UuidSchema });
export type UuidParams = z.infer<typeof UuidParamsSchema>;

export const IdParamsSchema = z.object({ id: UuidSchema });

export const PAGE_SIZE = 10;
export const MAX_LIMIT = 1000;

export const PaginationQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'La page doit être un nombre' })
    .int({ error: 'La page doit être un nombre entier' })
    .min(1, { error: 'La page commence à 1' })
    .default(1),
  limit: z.coerce
    .number({ error: 'La limite doit être un nombre' })
    .int({ error: 'La limite doit être un nombre entier' })
    .min(1, { error: 'La limite doit être au moins 1' })
    .max(MAX_LIMIT, { error: `La limite ne peut pas dépasser ${MAX_LIMIT}` })
    .default(PAGE_SIZE),
});

export const SearchQuerySchema = z.object({
  search: z.string().trim().max(200, { error: 'La recherche est trop longue (200 caractères max.)' }).optional(),
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

/** Optional free text: empty strings become null so "cleared" and "never set" read the same. */
export function optionalText(max: number, label: string) {
  return z
    .string()
    .trim()
    .max(max, { error: `${label} : ${max} caractères maximum` })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
}

export function requiredText(max: number, label: string) {
  return z
    .string({ error: `${label} est obligatoire` })
    .trim()
    .min(1, { error: `${label} est obligatoire` })
    .max(max, { error: `${label} : ${max} caractères maximum` });
}

/** A French (or international, with its prefix) phone number, stored as E.164. */
export const PhoneSchema = z
  .string()
  .trim()
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

export const EmailSchema = z
  .string({ error: "L'adresse e-mail est obligatoire" })
  .trim()
  .toLowerCase()
  .min(1, { error: "L'adresse e-mail est obligatoire" })
  .pipe(z.email({ error: 'Adresse e-mail invalide' }));

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

/** A calendar date without time, ISO (YYYY-MM-DD), as every date of the registers. */
export const IsoDateSchema = z.iso.date({ error: 'Date invalide (AAAA-MM-JJ)' });

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
