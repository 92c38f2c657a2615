import { VEHICULE_TYPES } from '@flotte/contract';

/**
 * Values as French spreadsheets hold them (DOMAIN.md "Spreadsheets French users bring"), turned
 * into what the contract's schemas take. Each parser answers `{ value }` or `{ error }` (French);
 * an empty cell is `{ value: undefined }` (the field is left as it is).
 */
export type Cell = string | number | boolean | Date | null;
export type Parsed<T> = { value: T | undefined } | { error: string };

const SPACES = /[\s\u00a0\u202f]/g;

export function isBlank(cell: Cell): boolean {
  return cell === null || (typeof cell === 'string' && cell.trim() === '');
}

/** Text as typed, trimmed; a number or date cell as a French reader would write it. */
export function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return isoOfDate(cell).split('-').reverse().join('/');
  if (typeof cell === 'number') return String(cell).replace('.', ',');
  if (typeof cell === 'boolean') return cell ? 'Oui' : 'Non';
  return cell.trim();
}

function isoOfDate(date: Date): string {
  // exceljs gives a date cell as UTC midnight of the day shown.
  return date.toISOString().slice(0, 10);
}

function validIso(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** Excel's day 0 is 1899-12-30 (the 1900 leap-year bug is before 1900-03-01, irrelevant here). */
export function excelSerialToIso(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2_958_465) return null;
  const date = new Date(Date.UTC(1899, 11, 30) + Math.floor(serial) * 86_400_000);
  return date.toISOString().slice(0, 10);
}

/** Two-digit years: this century unless that is more than a year ahead (a 1998 vehicle, written 98). */
function fullYear(yy: number, today = new Date()): number {
  const year = 2000 + yy;
  return year > today.getUTCFullYear() + 1 ? year - 100 : year;
}

const DATE_ERROR = 'Date invalide (attendu jj/mm/aaaa)';

/** dd/mm/yyyy, dd/mm/yy (also with - or .), ISO yyyy-mm-dd, an Excel serial or a date cell → YYYY-MM-DD. */
export function parseFrenchDate(cell: Cell): Parsed<string> {
  if (isBlank(cell)) return { value: undefined };
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? { error: DATE_ERROR } : { value: isoOfDate(cell) };
  if (typeof cell === 'number') {
    const iso = excelSerialToIso(cell);
    return iso ? { value: iso } : { error: DATE_ERROR };
  }
  const text = String(cell).trim();
  const french = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:[ T]\d{1,2}[:h]\d{2}(?::\d{2})?)?$/.exec(text);
  if (french) {
    const [, d, m, y] = french as unknown as [string, string, string, string];
    const year = y.length === 2 ? fullYear(Number(y)) : Number(y);
    const iso = validIso(year, Number(m), Number(d));
    return iso ? { value: iso } : { error: DATE_ERROR };
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$/.exec(text);
  if (iso) {
    const [, y, m, d] = iso as unknown as [string, string, string, string];
    const valid = validIso(Number(y), Number(m), Number(d));
    return valid ? { value: valid } : { error: DATE_ERROR };
  }
  // A serial typed as text ("45123") from a CSV saved out of a date column without format.
  if (/^\d{4,5}$/.test(text)) {
    const serial = excelSerialToIso(Number(text));
    if (serial) return { value: serial };
  }
  return { error: DATE_ERROR };
}

const AMOUNT_ERROR = 'Montant invalide (ex. 1 234,56 €)';

/**
 * `1 234,56 €` (thousands by space, U+00A0 or U+202F), `-1 234,56`, `(1 234,56)`, `1234.56`,
 * `1.234,56` → euros. The last of `,` and `.` is the decimal mark when both appear.
 */
export function parseFrenchAmount(cell: Cell): Parsed<number> {
  if (isBlank(cell)) return { value: undefined };
  if (typeof cell === 'number') return Number.isFinite(cell) ? { value: Math.round(cell * 100) / 100 } : { error: AMOUNT_ERROR };
  if (typeof cell !== 'string') return { error: AMOUNT_ERROR };
  let text = cell.replace(SPACES, '').replace(/€|eur(os?)?$/i, '');
  let negative = false;
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1);
  }
  if (text.startsWith('-')) {
    negative = !negative;
    text = text.slice(1);
  } else if (text.endsWith('-')) {
    negative = !negative;
    text = text.slice(0, -1);
  }
  text = text.replace(/€/g, '');
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return { error: AMOUNT_ERROR };
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  let normalized: string;
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    normalized = text.split(thousands).join('').replace(decimal, '.');
  } else if (lastComma >= 0) {
    if (text.indexOf(',') !== lastComma) normalized = text.split(',').join(''); // 1,234,567: English thousands
    else normalized = text.replace(',', '.');
  } else if (lastDot >= 0 && text.indexOf('.') !== lastDot) {
    normalized = text.split('.').join(''); // 1.234.567: French thousands
  } else {
    normalized = text;
  }
  if (!/^\d+(\.\d+)?$/.test(normalized)) return { error: AMOUNT_ERROR };
  const euros = Math.round(Number(normalized) * 100) / 100;
  return { value: negative ? -euros : euros };
}

const TRUE_WORDS = new Set(['oui', 'o', 'x', '1', 'vrai', 'true', 'yes', 'y']);
const FALSE_WORDS = new Set(['non', 'n', '0', 'faux', 'false', 'no']);

/** Oui/Non, O/N, X (a ticked column), 1/0, Vrai/Faux (and their English forms). */
export function parseFrenchBoolean(cell: Cell): Parsed<boolean> {
  if (isBlank(cell)) return { value: undefined };
  if (typeof cell === 'boolean') return { value: cell };
  const word = cellText(cell).toLowerCase();
  if (TRUE_WORDS.has(word)) return { value: true };
  if (FALSE_WORDS.has(word)) return { value: false };
  return { error: 'Valeur attendue : Oui ou Non' };
}

/** `50 %`, `50%`, `50`, `0,5` in a percentage cell (0.5) → 50. */
export function parsePercentage(cell: Cell): Parsed<number> {
  if (isBlank(cell)) return { value: undefined };
  // A fraction (0.5) is a percentage cell read without its format; a percentage-formatted XLSX cell comes as '50 %'.
  if (typeof cell === 'number') return { value: cell > 0 && cell < 1 ? Math.round(cell * 10000) / 100 : cell };
  const text = cellText(cell).replace(SPACES, '');
  const match = /^(-?\d+(?:[.,]\d+)?)%?$/.exec(text);
  if (!match) return { error: 'Pourcentage invalide (ex. 50 %)' };
  return { value: Number(match[1]!.replace(',', '.')) };
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** A category by its code (VP) or its label (« Poids lourd », « VUL (utilitaire léger ≤ 3,5 t) »). */
export function parseVehiculeType(cell: Cell): Parsed<string> {
  if (isBlank(cell)) return { value: undefined };
  const wanted = fold(cellText(cell));
  const found =
    VEHICULE_TYPES.find((t) => fold(t.code) === wanted || fold(t.label) === wanted) ??
    VEHICULE_TYPES.find((t) => fold(t.label).startsWith(`${wanted} `)) ??
    VEHICULE_TYPES.find((t) => wanted.length >= 4 && ` ${fold(t.label)} `.includes(` ${wanted} `));
  // Unknown: handed as typed to the contract's enum, which says « Catégorie de véhicule inconnue ».
  return { value: found?.code ?? cellText(cell) };
}

export const SINISTER_STATUS_WORDS: Record<string, 'open' | 'inProgress' | 'closed' | 'refused'> = {
  ouvert: 'open',
  open: 'open',
  'en cours': 'inProgress',
  inprogress: 'inProgress',
  'in progress': 'inProgress',
  clos: 'closed',
  cloture: 'closed',
  ferme: 'closed',
  closed: 'closed',
  regle: 'closed',
  refuse: 'refused',
  refused: 'refused',
  rejete: 'refused',
};

/** Ouvert, En cours, Clos (clôturé, réglé), Refusé → the contract's status codes. */
export function parseSinisterStatus(cell: Cell): Parsed<string> {
  if (isBlank(cell)) return { value: undefined };
  const word = fold(cellText(cell));
  return { value: SINISTER_STATUS_WORDS[word] ?? SINISTER_STATUS_WORDS[word.replace(/e$/, '')] ?? cellText(cell) };
}

/** Plain text: a number cell written the French way, a code (postal code) kept as typed. */
export function parseText(cell: Cell): Parsed<string> {
  if (isBlank(cell)) return { value: undefined };
  if (typeof cell === 'number') return { value: String(cell) };
  return { value: cellText(cell) };
}

/** A phone as typed: the contract's PhoneSchema reads French spellings (06…, +33 6…, 0033…). */
export function parsePhone(cell: Cell): Parsed<string> {
  if (isBlank(cell)) return { value: undefined };
  // A number cell lost its leading zero (612345678): put it back for a 9-digit French mobile or landline.
  if (typeof cell === 'number') {
    const digits = String(cell);
    return { value: digits.length === 9 ? `0${digits}` : digits };
  }
  const text = cellText(cell).replace(/^00/, '+');
  return { value: text };
}

export { fold as foldHeader };
