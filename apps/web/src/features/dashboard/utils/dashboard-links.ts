import type { DeclaredFilter } from './dashboard-window';
import { addDays, addMonths } from './dashboard-window';

// Every figure opens the claims or the vehicles behind it, with the registers' own URL filters
// (apps/web/src/app/routes/app/sinisters.tsx and vehicules.tsx, as GET /api/sinister and
// GET /api/vehicule name them).

export type ClaimsLink = {
  startDate: string;
  endDate: string;
  declared?: DeclaredFilter;
  /** A guarantee's uuid (the API spells the parameter `garantee`). */
  guarantee?: string | null;
  /** 'me': a responsibility rate above 0; 'other': a rate of 0 (the register's toggles). */
  responsible?: 'me' | 'other';
  /** One driver's claims: the driver's uuid. */
  driver?: string;
};

function url(path: string, params: [string, string | null | undefined][]): string {
  const query = new URLSearchParams();
  for (const [name, value] of params) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** /sinisters with the window, the declared filter and the figure's own filters. */
export function claimsUrl(link: ClaimsLink): string {
  return url('/sinisters', [
    ['startDate', link.startDate],
    ['endDate', link.endDate],
    ['showDeclared', link.declared === 'declared' ? 'true' : null],
    ['showNotDeclared', link.declared === 'notDeclared' ? 'true' : null],
    ['garantee', link.guarantee],
    ['responsible', link.responsible],
    ['driver', link.driver],
  ]);
}

/** /vehicules present in the fleet at some point between start and end (a day: start = end). */
export function vehiclesUrl(start: string, end: string = start): string {
  return url('/vehicules', [
    ['start', start],
    ['end', end],
  ]);
}

/** The days of `month` (YYYY-MM) inside the window: the claims of one bar of the monthly chart. */
export function monthInWindow(month: string, window: { startDate: string; endDate: string }): { startDate: string; endDate: string } {
  const first = `${month}-01`;
  const last = addDays(addMonths(first, 1), -1);
  return { startDate: first < window.startDate ? window.startDate : first, endDate: last > window.endDate ? window.endDate : last };
}

/** The 12 months ending on the window's last day: the drivers' ranking (decision 022). */
export function twelveMonthsTo(endDate: string): { startDate: string; endDate: string } {
  return { startDate: addDays(addMonths(endDate, -12), 1), endDate };
}
