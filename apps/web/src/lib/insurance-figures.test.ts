import { LIMIT_WARNING_POINTS } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { formatPercent, formatSignedVehicles, LIMIT_COLORS, LIMIT_LABELS, limitStatus } from './insurance-figures';

describe('limitStatus (green below, orange within the warning points, red above)', () => {
  const limit = 70;
  it.each([
    [0, 'below'],
    [limit - LIMIT_WARNING_POINTS - 0.01, 'below'],
    [limit - LIMIT_WARNING_POINTS, 'near'],
    [limit - 0.5, 'near'],
    [limit, 'near'],
    [limit + 0.001, 'above'],
    [limit * 3, 'above'],
  ] as const)('%d %% against a %d %% limit is %s', (value, expected) => {
    expect(limitStatus(value, limit)).toBe(expected);
  });

  it('has no status without a figure (no premium, no vehicle)', () => {
    expect(limitStatus(null, limit)).toBe('unknown');
  });

  it('says each status in words and in its colour, never colour alone', () => {
    expect(LIMIT_LABELS).toEqual({ below: 'Sous la limite', near: 'Proche de la limite', above: 'Au-dessus de la limite', unknown: 'Non calculable' });
    expect(LIMIT_COLORS).toEqual({ below: 'success', near: 'warning', above: 'error', unknown: 'default' });
  });
});

describe('formatPercent', () => {
  it('writes one decimal with a comma and a narrow no-break space before %', () => {
    expect(formatPercent(65.25)).toBe('65,3\u202f%');
    expect(formatPercent(65)).toBe('65,0\u202f%');
    expect(formatPercent(200 / 3)).toBe('66,7\u202f%');
    expect(formatPercent(12345.67)).toBe('12\u202f345,7\u202f%');
    expect(formatPercent(-4.44)).toBe('-4,4\u202f%');
    expect(formatPercent(-0.01)).toBe('0,0\u202f%');
  });
  it('is empty without a figure', () => {
    expect(formatPercent(null)).toBe('');
    expect(formatPercent(Number.NaN)).toBe('');
  });
});

describe('formatSignedVehicles', () => {
  it('signs the half-difference and writes a half with a comma', () => {
    expect(formatSignedVehicles(4)).toBe('+4');
    expect(formatSignedVehicles(-1.5)).toBe('-1,5');
    expect(formatSignedVehicles(0.5)).toBe('+0,5');
    expect(formatSignedVehicles(0)).toBe('0');
  });
});
