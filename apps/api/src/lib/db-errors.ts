/**
 * Two requests racing for one unique value (a plate, a name in a folder, an e-mail address) both
 * pass their check; the unique index stops the second with 23505, found here however deep the
 * driver or Drizzle wrapped it.
 */
export function isUniqueViolation(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
