// How the app shows values to a French reader: pure functions, no zod, no libphonenumber, so the
// web's list pages carry them cheaply (decision 015). Plates have their own module (plates.ts).

// Intl's formatters are made on first use, not when the module loads: a browser's first French
// NumberFormat loads its locale data (13–36 ms on this machine, four times that on Lighthouse's
// phone), which a page that shows no amount must not pay (issue 10).
let euroFormat: Intl.NumberFormat | undefined;
/** 1 234,56 € */
export function formatEuros(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '';
  euroFormat ??= new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
  return euroFormat.format(amount);
}

let parisDate: Intl.DateTimeFormat | undefined;
/** Today in France (YYYY-MM-DD), whatever the server's time zone. */
export function todayIso(now: Date = new Date()): string {
  parisDate ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
  return parisDate.format(now);
}

/** A French number as PhoneSchema stores it: +33 and the 9 digits after the trunk 0. */
const FRENCH_E164 = /^\+33([1-9]\d{8})$/;

/**
 * A French E.164 number (+33…) the way formatPhone() (phones.ts, libphonenumber) writes it, without
 * libphonenumber: `06 12 34 56 78`, and `0 800 12 34 56` for the 08 numbers, as its FR metadata
 * says. Null for any other number: those need libphonenumber.
 */
export function formatFrenchPhone(e164: string): string | null {
  const national = FRENCH_E164.exec(e164)?.[1];
  if (!national) return null;
  if (national.startsWith('8')) return `0 ${national.slice(0, 3)} ${national.slice(3, 5)} ${national.slice(5, 7)} ${national.slice(7)}`;
  return `0${national[0]} ${national.slice(1, 3)} ${national.slice(3, 5)} ${national.slice(5, 7)} ${national.slice(7)}`;
}

/** A size in French units: '1,2 Mo', '532 Ko', '12 octets' (documents, backups, imports). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}\u00a0octet${bytes > 1 ? 's' : ''}`;
  const units = ['Ko', 'Mo', 'Go', 'To'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString('fr-FR', { maximumFractionDigits: 1 })}\u00a0${units[unit]}`;
}
