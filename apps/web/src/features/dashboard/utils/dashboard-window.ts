import { todayIso } from '@flotte/contract';

/** The dashboard's filters, as the URL keeps them (the API's names: GET /api/dashboard/…). */
export type DeclaredFilter = 'all' | 'declared' | 'notDeclared';
export type DashboardWindow = { startDate: string; endDate: string; declared: DeclaredFilter };

/** YYYY-MM-DD shifted by whole months, the day clamped to the month's last day (as the API does). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

export const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** SPEC 9: six months before today → today. Moves with the calendar, so it stays out of the URL. */
export function defaultWindow(today: string = todayIso()): { startDate: string; endDate: string } {
  return { startDate: addMonths(today, -6), endDate: today };
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The window the URL asks for (startDate, endDate, isDeclared=true|false), the defaults for what it
 * does not say or says wrong; an end before the start falls back to the defaults.
 */
export function readWindow(params: URLSearchParams, today: string = todayIso()): DashboardWindow {
  const defaults = defaultWindow(today);
  const start = params.get('startDate') ?? '';
  const end = params.get('endDate') ?? '';
  let startDate = ISO_DAY.test(start) ? start : defaults.startDate;
  let endDate = ISO_DAY.test(end) ? end : defaults.endDate;
  if (startDate > endDate) ({ startDate, endDate } = defaults);
  const flag = params.get('isDeclared');
  return { startDate, endDate, declared: flag === 'true' ? 'declared' : flag === 'false' ? 'notDeclared' : 'all' };
}

/** The window in the URL: only what differs from the defaults (a shared link keeps its window). */
export function writeWindow(params: URLSearchParams, window: DashboardWindow, today: string = todayIso()): URLSearchParams {
  const next = new URLSearchParams(params);
  const defaults = defaultWindow(today);
  const set = (name: string, value: string | null) => (value === null ? next.delete(name) : next.set(name, value));
  set('startDate', window.startDate === defaults.startDate ? null : window.startDate);
  set('endDate', window.endDate === defaults.endDate ? null : window.endDate);
  set('isDeclared', window.declared === 'all' ? null : String(window.declared === 'declared'));
  return next;
}

/** The API's query of a window figure. */
export function windowQuery(window: DashboardWindow): { startDate: string; endDate: string; isDeclared?: 'true' | 'false' } {
  return {
    startDate: window.startDate,
    endDate: window.endDate,
    ...(window.declared === 'all' ? {} : { isDeclared: window.declared === 'declared' ? 'true' : 'false' }),
  };
}
