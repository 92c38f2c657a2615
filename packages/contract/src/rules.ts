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

/** A claim's state as its rules read it: the body over the stored claim (decision 024). */
export type ClaimState = {
  sinisterDate: string;
  status: 'open' | 'inProgress' | 'closed' | 'refused';
  openedAt: string | null;
  closedAt: string | null;
  paidCents: number;
  reserveCents: number;
};
export type ClaimIssue = { path: 'closedAt' | 'openedAt' | 'reserveAmount' | 'totalCost' | 'paidAmount'; message: string };

const isSettled = (status: ClaimState['status']) => status === 'closed' || status === 'refused';

/** The rules of a claim's status, dates and amounts that need no database: each broken one, on its field. */
export function claimIssues(c: ClaimState): ClaimIssue[] {
  const issues: ClaimIssue[] = [];
  const settled = isSettled(c.status);
  if (settled && !c.closedAt) issues.push({ path: 'closedAt', message: 'La date de clôture est obligatoire pour un sinistre clos ou refusé' });
  if (!settled && c.closedAt) issues.push({ path: 'closedAt', message: "Un sinistre ouvert ou en cours n'a pas de date de clôture" });
  if (settled && c.reserveCents > 0) issues.push({ path: 'reserveAmount', message: "Un sinistre clos ou refusé n'a plus de provision : mettez-la à 0" });
  if (c.openedAt && c.openedAt < c.sinisterDate) issues.push({ path: 'openedAt', message: "La date d'ouverture ne peut pas précéder la date du sinistre" });
  if (c.closedAt && c.closedAt < (c.openedAt ?? c.sinisterDate)) {
    issues.push({ path: 'closedAt', message: c.openedAt ? "La date de clôture ne peut pas précéder la date d'ouverture" : 'La date de clôture ne peut pas précéder la date du sinistre' });
  }
  return issues;
}

/**
 * A claim's paid amount and reserve from a body that may still send only `totalCost` (SPEC's
 * clients): with neither amount, the total moves the reserve (paid kept) — or, on a closed or
 * refused claim, becomes the paid amount; with one amount, the other is the total's rest; with
 * both, the total must be their sum. In cents.
 */
export function claimAmounts(
  body: { totalCostCents?: number; paidCents?: number; reserveCents?: number },
  current: { paidCents: number; reserveCents: number },
  status: ClaimState['status'],
): { paidCents: number; reserveCents: number } | ClaimIssue {
  const { totalCostCents: total, paidCents: paid, reserveCents: reserve } = body;
  if (total === undefined) return { paidCents: paid ?? current.paidCents, reserveCents: reserve ?? current.reserveCents };
  if (paid === undefined && reserve === undefined) {
    if (isSettled(status)) return { paidCents: total, reserveCents: 0 };
    if (total < current.paidCents) return { path: 'totalCost', message: 'Le coût total ne peut pas être inférieur au montant réglé' };
    return { paidCents: current.paidCents, reserveCents: total - current.paidCents };
  }
  const paidCents = paid ?? total - reserve!;
  const reserveCents = reserve ?? total - paid!;
  if (paidCents < 0 || reserveCents < 0 || paidCents + reserveCents !== total) {
    return { path: 'totalCost', message: 'Le coût total doit être égal au montant réglé plus la provision' };
  }
  return { paidCents, reserveCents };
}
