// Pure checks the schemas apply and the web repeats on screen (a dialog's date check, the cents of
// an amount): no zod here (decision 015).

/**
 * NUL (PostgreSQL text cannot hold it) and a lone surrogate (not Unicode: the driver would store
 * U+FFFD in its place). A surrogate pair is a valid character outside the BMP (emoji…).
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses.
const UNSAFE_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSafeText(value: string): boolean {
  return !UNSAFE_CHARACTER.test(value);
}

export const UNSAFE_TEXT_MESSAGE = 'caractère non autorisé (caractère nul ou caractère Unicode incomplet)';

export const eurosToCents = (euros: number) => Math.round(euros * 100);
export const centsToEuros = (cents: number) => cents / 100;

type DateFields = { circulationDate?: string | null; entryDate?: string | null; exitDate?: string | null };
/** entryDate ≤ exitDate and circulationDate ≤ entryDate, when both are known. */
export function vehiculeDateIssues(v: DateFields): { path: 'exitDate' | 'entryDate'; message: string }[] {
  const issues: { path: 'exitDate' | 'entryDate'; message: string }[] = [];
  if (v.entryDate && v.exitDate && v.entryDate > v.exitDate) {
    issues.push({ path: 'exitDate', message: "La date de sortie doit être postérieure ou égale à la date d'entrée" });
  }
  if (v.circulationDate && v.entryDate && v.circulationDate > v.entryDate) {
    issues.push({ path: 'entryDate', message: "La date d'entrée dans la flotte ne peut précéder la mise en circulation" });
  }
  return issues;
}
