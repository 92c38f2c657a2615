import type { ChartsLocaleText } from '@mui/x-charts/locales';
import { formatCount, formatEuros } from '../../../lib/format';

// MUI X Charts (large) in chunks of their own, one per kind of chart (bars, ring, line) over a
// shared core, loaded once the figures' cards are on screen (chart-panels.tsx renders a skeleton
// of the same height until then). Every value the charts draw is also a link under the chart
// (chart-panels.tsx): a click on a bar or a slice opens the same claims.

export const CHART_HEIGHT = 260;

/** The charts' own words in French (the overlays; the library's locales module carries every language). */
export const FRENCH: Partial<ChartsLocaleText> = { loading: 'Chargement…', noData: 'Pas de données' };

export const euros = (value: number | null) => (value === null ? '' : formatEuros(value));
export const count = (value: number | null) => (value === null ? '' : formatCount(value));
/** Axis ticks without cents: « 800 € », « 1,2 k€ », « 12 k€ » (one decimal under 10 k€, so 1 200 and 1 400 differ). */
export function shortEuros(value: number): string {
  const abs = Math.abs(value);
  if (abs < 1000) return `${formatCount(Math.round(value))}\u202f€`;
  if (abs < 10_000) return `${(Math.round(value / 100) / 10).toFixed(1).replace('.', ',').replace(',0', '')}\u202fk€`;
  return `${formatCount(Math.round(value / 1000))}\u202fk€`;
}
