// libphonenumber-js, in its own module: only what parses or formats any country's number imports
// it (the phone field of the forms, and the web once a foreign number shows); decision 015.
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** A phone number as typed (French by default, or with its +prefix) in E.164; null when invalid. */
export function toE164(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value, 'FR');
  return parsed && parsed.isValid() ? (parsed.number as string) : null;
}

/** Formats an E.164 number the French way: 06 12 34 56 78, or international for other countries. */
export function formatPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === 'FR' ? parsed.formatNational() : parsed.formatInternational();
}
