// How the app shows values to a French reader: pure functions, no zod, no libphonenumber, so the
// web's list pages carry them cheaply (decision 015). Plates have their own module (plates.ts).

// Amounts and today's date by hand, Intl's formatters only for what the hand does not cover: a
// browser's first French NumberFormat loads its locale data, its first DateTimeFormat in
// Europe/Paris the time zone's (13–36 ms each on this machine, four times that on Lighthouse's
// phone: 18 and 69 ms of the dashboard's first render at ×4), which a page must not pay to say
// « 1 234,56 € » or to know the day (issue 10). Both give what Intl gives (format.test.ts, web).

/** Thousands grouped by a narrow no-break space, as Intl writes French numbers. */
export const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+$)/g, '\u202f');

let euroFormat: Intl.NumberFormat | undefined;
/** 1 234,56 € (Intl's fr-FR currency format: its rounding of the shortest decimal, half away from zero; -0 keeps its sign). */
export function formatEuros(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '';
  const decimal = String(Math.abs(amount));
  if (!/^\d+(\.\d+)?$/.test(decimal)) {
    // NaN, Infinity, exponents (under 1e-6 or from 1e21): Intl's words for them.
    euroFormat ??= new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
    return euroFormat.format(amount);
  }
  const [units, fraction = ''] = decimal.split('.') as [string, string?];
  const cents = BigInt(units + `${fraction}00`.slice(0, 2)) + (fraction[2] !== undefined && fraction[2] >= '5' ? 1n : 0n);
  const digits = cents.toString().padStart(3, '0');
  const sign = amount < 0 || Object.is(amount, -0) ? '-' : '';
  return `${sign}${groupThousands(digits.slice(0, -2))},${digits.slice(-2)}\u00a0€`;
}

/** 01:00 UTC on the last Sunday of a month: when France's summer time starts (March) or ends (October). */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

let parisDate: Intl.DateTimeFormat | undefined;
/**
 * Today in France (YYYY-MM-DD), whatever the server's or the browser's time zone: UTC+2 from the
 * last Sunday of March to the last Sunday of October at 01:00 UTC (the European rule since 1996),
 * UTC+1 otherwise; Intl's time zone data outside 1996–2099.
 */
export function todayIso(now: Date = new Date()): string {
  const time = now.getTime();
  const year = now.getUTCFullYear();
  if (!(year >= 1996 && year <= 2099)) {
    parisDate ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
    return parisDate.format(now);
  }
  const summer = time >= lastSundayAtOneUtc(year, 2) && time < lastSundayAtOneUtc(year, 9);
  return new Date(time + (summer ? 2 : 1) * 3_600_000).toISOString().slice(0, 10);
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
