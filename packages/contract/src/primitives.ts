import { DATE_MAX, DATE_MIN, MAX_LENGTH } from './constants.js';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './rules.js';
import { z } from './zod.js';

/**
 * The building blocks of every value a client sends (decision 013). A field is declared with one
 * of these, never with a bare z.string() / z.number(), so that no input reaches the database
 * without a maximum, with a character PostgreSQL refuses, or with a date it cannot store:
 * such an input is a French 400 naming the field, never a 500.
 */

const prefixed = (label: string | undefined, message: string) => (label ? `${label} : ${message}` : message.charAt(0).toUpperCase() + message.slice(1));

export type TextOptions = {
  max: number;
  /** 'Le prénom': the subject of the messages ('Le prénom est obligatoire'). */
  label?: string;
  /** Spaces around are dropped before the checks (default true; a password keeps them). */
  trim?: boolean;
  /** The message when the value is missing or not a string ('Le mot de passe est obligatoire'). */
  missing?: string;
};

/**
 * The base of every string a client sends: a maximum length and only characters the database
 * stores as sent. Empty is accepted: `requiredText` adds the "obligatoire".
 */
export function text({ max, label, trim = true, missing }: TextOptions) {
  const base = z.string({ error: missing ?? prefixed(label, 'texte attendu') });
  return (trim ? base.trim() : base)
    .max(max, { error: prefixed(label, `${max} caractères maximum`) })
    .refine(isSafeText, { error: prefixed(label, UNSAFE_TEXT_MESSAGE) });
}

/** A required text: 'Le prénom est obligatoire' when missing or blank. */
export function requiredText(max: number, label: string) {
  return z
    .string({ error: `${label} est obligatoire` })
    .trim()
    .min(1, { error: `${label} est obligatoire` })
    .max(max, { error: `${label} : ${max} caractères maximum` })
    .refine(isSafeText, { error: `${label} : ${UNSAFE_TEXT_MESSAGE}` });
}

/** Optional free text: empty strings become null so "cleared" and "never set" read the same. */
export function optionalText(max: number, label: string) {
  return text({ max, label })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
}

/** A person's first or last name, required. */
export const personName = (label: string) => requiredText(MAX_LENGTH.name, label);

/** A reference from another system (a claim number…), optional. */
export const reference = (label: string) => optionalText(MAX_LENGTH.reference, label);

/** A description or comment, optional; `max` when the field has its own (a report's 800). */
export const freeText = (label: string, max: number = MAX_LENGTH.freeText) => optionalText(max, label);

/** A search term of a list's query string. */
export const SearchSchema = z
  .string({ error: 'La recherche doit être un texte' })
  .trim()
  .max(MAX_LENGTH.search, { error: `La recherche est trop longue (${MAX_LENGTH.search} caractères max.)` })
  .refine(isSafeText, { error: `La recherche : ${UNSAFE_TEXT_MESSAGE}` })
  .optional();

/** An e-mail address, lower-cased; at most 254 characters (beyond, no server delivers it). */
export const EmailSchema = z
  .string({ error: "L'adresse e-mail est obligatoire" })
  .trim()
  .toLowerCase()
  .min(1, { error: "L'adresse e-mail est obligatoire" })
  .max(MAX_LENGTH.email, { error: `Adresse e-mail : ${MAX_LENGTH.email} caractères maximum` })
  .pipe(z.email({ error: 'Adresse e-mail invalide' }));

/** An optional e-mail address: empty becomes null. */
export const OptionalEmailSchema = z
  .string({ error: 'Adresse e-mail invalide' })
  .trim()
  .toLowerCase()
  .max(MAX_LENGTH.email, { error: `Adresse e-mail : ${MAX_LENGTH.email} caractères maximum` })
  .transform((v) => (v === '' ? null : v))
  .pipe(z.email({ error: 'Adresse e-mail invalide' }).nullable())
  .nullable()
  .optional();

/** An http(s) address, optional: empty becomes null. `httpsOnly`: https, on a named domain (no localhost, no bare address). */
export function optionalUrl(message: string, options: { httpsOnly?: boolean } = {}) {
  const url = options.httpsOnly
    ? z.url({ protocol: /^https$/, hostname: z.regexes.domain, error: message })
    : z.url({ protocol: /^https?$/, error: message });
  return text({ max: MAX_LENGTH.url, label: 'Le lien' })
    .transform((v) => (v === '' ? null : v))
    .pipe(url.nullable())
    .nullable()
    .optional();
}

/** A uuid in a path, a query or a body. */
export const UuidSchema = z.uuid({ error: 'Identifiant invalide' }).max(MAX_LENGTH.uuid, { error: 'Identifiant invalide' });

/** A required link to another record: 'Le véhicule est obligatoire' when missing, invalid otherwise. */
export function requiredRef(missing: string) {
  return z
    .uuid({ error: (issue) => (issue.input === undefined || issue.input === null || issue.input === '' ? missing : 'Identifiant invalide') })
    .max(MAX_LENGTH.uuid, { error: 'Identifiant invalide' });
}

const frenchDate = (iso: string) => iso.split('-').reverse().join('/');

export type DateOptions = {
  /** The message when the field is missing (a required date); 'Date invalide (AAAA-MM-JJ)' otherwise. */
  missing?: string;
  min?: string;
  max?: string;
};

/**
 * A calendar date without time, ISO (YYYY-MM-DD), between 1900 and 2100 unless the field says
 * otherwise: PostgreSQL refuses year 0, and no vehicle, driver or claim is older or further.
 */
export function isoDate({ missing, min = DATE_MIN, max = DATE_MAX }: DateOptions = {}) {
  const invalid = 'Date invalide (AAAA-MM-JJ)';
  return z.iso
    .date({ error: (issue) => (missing && (issue.input === undefined || issue.input === '') ? missing : invalid) })
    .max(MAX_LENGTH.date, { error: invalid })
    .refine((d) => d >= min && d <= max, { error: `Date hors limites : entre le ${frenchDate(min)} et le ${frenchDate(max)}` });
}

/** Every date of the registers and of the filters. */
export const IsoDateSchema = isoDate();

export type IntegerOptions = {
  min: number;
  max: number;
  /** 'La page': the subject of the messages ('La page doit être un nombre'). */
  label: string;
  /** A message of the field's own when below the minimum ('Le nombre doit être positif'). */
  minMessage?: string;
};

/** An integer of a JSON body, within its bounds. */
export function integer({ min, max, label, minMessage }: IntegerOptions) {
  return z
    .number({ error: `${label} doit être un nombre` })
    .int({ error: `${label} doit être un nombre entier` })
    .min(min, { error: minMessage ?? `${label} doit être au moins ${min}` })
    .max(max, { error: `${label} ne peut pas dépasser ${max}` });
}

/** An integer of a query string ('?page=2'), within its bounds. */
export function queryInteger({ min, max, label, minMessage }: IntegerOptions) {
  return z.coerce
    .number({ error: `${label} doit être un nombre` })
    .int({ error: `${label} doit être un nombre entier` })
    .min(min, { error: minMessage ?? `${label} doit être au moins ${min}` })
    .max(max, { error: `${label} ne peut pas dépasser ${max}` });
}
