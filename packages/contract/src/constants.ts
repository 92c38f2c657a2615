// Plain values shared by the schemas, the API and the web. No zod here: the web's list pages and
// its login import these without loading zod (decision 015).

/** Header the web sends on cookie-authenticated calls: a cross-site form cannot set it. */
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_HEADER_VALUE = 'flotteassur';

/** Maximum lengths, by use. The e-mail's is RFC 5321's; the others leave room for real values. */
export const MAX_LENGTH = {
  /** A person's first or last name. */
  name: 100,
  /** A title, a label, a city, a brand. */
  label: 120,
  /** An e-mail address (RFC 5321: 254 characters in a path). */
  email: 254,
  /** A reference or identifier from another system (claim number, product id). */
  reference: 60,
  /** A phone number as typed, before it is parsed. */
  phone: 40,
  /** A search term. */
  search: 200,
  /** Free text: descriptions, comments. */
  freeText: 2000,
  /** A web address. */
  url: 2048,
  /** A password as typed. */
  password: 200,
  /** A list of codes in a query string (types=VP,VUL). */
  codeList: 500,
  /** A uuid (36) and an ISO date (10): their formats are fixed, the maximum says so in OpenAPI. */
  uuid: 36,
  date: 10,
} as const;

/** The dates a field accepts unless it says otherwise (PostgreSQL has no year 0). */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2100-12-31';

/** The largest page number a list accepts: beyond it no register has rows, and the offset stays small. */
export const MAX_PAGE = 1_000_000;

export const PAGE_SIZE = 10;
export const MAX_LIMIT = 1000;

/**
 * A form's choice of a register's records (the claim's vehicle, its driver…): it loads this many
 * at once; when the register holds more, the field searches the server as the user types.
 */
export const CHOICES_LIMIT = 200;

/** Filtered lists count at most this many rows: an exact count of a million claims costs seconds. */
export const COUNT_CAP = 1000;

export const ROLES = ['ROOT', 'SUPERADMIN', 'ADMIN', 'USER'] as const;
export type Role = (typeof ROLES)[number];

export const DRIVER_SORT_COLUMNS = ['lastName', 'firstName', 'email', 'phone', 'createdAt'] as const;
export type DriverSortColumn = (typeof DRIVER_SORT_COLUMNS)[number];

export const VEHICULE_SORT_COLUMNS = ['immatriculation', 'brand', 'model', 'type', 'circulationDate', 'entryDate', 'exitDate', 'createdAt'] as const;

export const SINISTER_SORT_COLUMNS = ['sinisterDate', 'sinisterIntermediateRef', 'city', 'totalCost', 'immatriculation', 'createdAt'] as const;

/** A claim's status as an insurer follows it (decision 024): stored and sent as these values. */
export const SINISTER_STATUSES = ['open', 'inProgress', 'closed', 'refused'] as const;
export type SinisterStatus = (typeof SINISTER_STATUSES)[number];
/** The statuses' French labels, as shown. */
export const SINISTER_STATUS_LABELS: Record<SinisterStatus, string> = { open: 'Ouvert', inProgress: 'En cours', closed: 'Clos', refused: 'Refusé' };
/** A closed or refused claim is settled: it has a closing date and no reserve left. */
export const SETTLED_STATUSES: readonly SinisterStatus[] = ['closed', 'refused'];

/** A claim's responsibility rate, in %. */
export const RESPONSIBILITY_RATES = [0, 25, 50, 75, 100] as const;

export const REPORT_DESCRIPTION_MAX = 800;
export const REPORT_TITLE_MAX = 150;

/** Dashboard limits (DOMAIN.md "Limits management"): defaults and the highest accepted threshold, in percent. */
export const DEFAULT_LOSS_RATIO_PERCENTAGE = 70;
export const DEFAULT_CLAIM_FREQUENCY_PERCENTAGE = 20;
export const LIMIT_PERCENTAGE_MAX = 1000;
/** A limit shows orange within this many points below it, red above it. */
export const LIMIT_WARNING_POINTS = 10;

// The document management (decision 030), here rather than in documents.ts: the web's file kinds and
// the GED read them without the schemas (and what they import) in a page's first load.
/** Days a deleted document stays in the trash before it is purged. */
export const DOCUMENT_TRASH_DAYS = 30;

/** Documents expiring within this many days are shown to the user ahead (a green card, a licence…). */
export const DOCUMENT_EXPIRY_NOTICE_DAYS = 30;

/** Files in one upload request: the web sends more as several requests. */
export const DOCUMENT_FILES_PER_UPLOAD = 20;

/**
 * The version of the terms of use (CGU) in force: the date of their text
 * (apps/web/src/content/cgu.md says « Version du … » of the same day). Change both together: every
 * user is then asked to accept the new text at their next visit (issue 15). Here, not in cgu.ts:
 * the logged layout reads it, and must not bring zod with it (issue 10).
 */
export const CGU_VERSION = '2026-11-26';

/**
 * The `Idempotency-Key` request header (decision 050) and the header of an answer replayed from
 * it. Here, not in idempotency.ts: the web's API client sends it without bringing zod.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
