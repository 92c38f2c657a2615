import type { LimitStatus } from '@flotte/contract';
import { formatCount } from './format';

// The insurance figures as the screens show them: against their limit (DOMAIN.md "Limits
// management"), as percentages, half-differences; shared by the dashboard and the broker's table.

// The rule is the contract's: the automatic prevention alerts are raised on it too (decision 037).
export { limitStatus, type LimitStatus } from '@flotte/contract';

/** The words that say what the colour says, so colour is never the only signal. */
export const LIMIT_LABELS: Readonly<Record<LimitStatus, string>> = {
  below: 'Sous la limite',
  near: 'Proche de la limite',
  above: 'Au-dessus de la limite',
  unknown: 'Non calculable',
};

/** MUI palette colours of each status (the chip's and the card's edge). */
export const LIMIT_COLORS: Readonly<Record<LimitStatus, 'success' | 'warning' | 'error' | 'default'>> = {
  below: 'success',
  near: 'warning',
  above: 'error',
  unknown: 'default',
};

/**
 * A percentage the French way, one decimal and a comma: 65.25 → « 65,3 % » (narrow no-break space
 * before %, as Intl writes it). Empty for no figure.
 */
export function formatPercent(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '';
  const tenths = Math.round(Math.abs(value) * 10);
  const sign = value < 0 && tenths > 0 ? '-' : '';
  return `${sign}${formatCount(Math.floor(tenths / 10))},${tenths % 10}\u202f%`;
}

/** A half-difference in vehicles: 4 → '+4', -1.5 → '-1,5', 0 → '0'. */
export function formatSignedVehicles(value: number): string {
  const text = Number.isInteger(value) ? formatCount(Math.abs(value)) : `${formatCount(Math.trunc(Math.abs(value)))},5`;
  return value > 0 ? `+${text}` : value < 0 ? `-${text}` : text;
}
