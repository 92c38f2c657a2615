import { formatFrenchPhone, groupThousands } from '@flotte/contract';
const two = (n: number) => String(n).padStart(2, '0');

/**
 * `2025-03-07` or `2025-03-07T…` → `07/03/2025` (a date and time in the browser's time zone, as
 * dayjs did); empty for nothing or an invalid date. No date library: every list shows dates, and
 * dayjs comes only with the date pickers (issue 10).
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string') {
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (day) {
      const [, year, month, date] = day;
      const check = new Date(Number(year), Number(month) - 1, Number(date));
      return check.getMonth() === Number(month) - 1 ? `${date}/${month}/${year}` : '';
    }
  }
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** An instant in the browser's time zone, to the minute: `26/11/2026 à 14:05`; empty for nothing or an invalid date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  return `${formatDate(date)} à ${two(date.getHours())}:${two(date.getMinutes())}`;
}

// The contract owns these rules, so the web shows exactly what the API validates:
// amounts (`1 234,56 €`) and plates (`AB-123-CD`), phones (E.164 in, `06 12 34 56 78` out).
export { formatEuros, formatFileSize, formatPlate, todayIso } from '@flotte/contract';

type PhoneFormatter = (e164: string) => string;
let anyCountry: PhoneFormatter | null = null;
let loadingAnyCountry: Promise<PhoneFormatter> | null = null;

/**
 * libphonenumber (about 30 kB brotli) comes only for a number of another country than France, on
 * its own (decision 015): the contract's formatPhone, in a chunk of its own.
 */
export function loadPhoneFormatter(): Promise<PhoneFormatter> {
  loadingAnyCountry ??= import('./phone-format-any-country').then(({ formatPhone }) => {
    anyCountry = formatPhone;
    return formatPhone;
  });
  return loadingAnyCountry;
}

/**
 * An E.164 number the French way, exactly as the contract's formatPhone (libphonenumber) writes it:
 * `06 12 34 56 78` for France, with no library; international (`+44 20 7946 0958`) for another
 * country once libphonenumber has loaded, which this starts: until then, the E.164 as stored.
 */
export function formatPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  const french = formatFrenchPhone(e164);
  if (french !== null) return french;
  if (anyCountry) return anyCountry(e164);
  void loadPhoneFormatter().catch(() => undefined);
  return e164;
}

let frenchNumber: Intl.NumberFormat | undefined;

/**
 * `12345` → '12 345': a narrow no-break space between thousands, as Intl writes French numbers.
 * Whole numbers by hand: a browser's first French NumberFormat loads its locale data (13–36 ms on
 * this machine, four times that on a phone), and every list says its counts (issue 10).
 */
export function formatCount(count: number): string {
  if (Number.isSafeInteger(count)) return `${count < 0 ? '-' : ''}${groupThousands(String(Math.abs(count)))}`;
  frenchNumber ??= new Intl.NumberFormat('fr-FR');
  return frenchNumber.format(count);
}

/** `plural(12, 'véhicule')` → '12 véhicules'. French: 0 and 1 take the singular. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count > 1 ? pluralForm : singular}`;
}
