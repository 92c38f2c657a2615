import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatEuros, formatPhone, formatPlate, plural } from './format';

describe('French formatters', () => {
  it('formats dates as dd/mm/yyyy', () => {
    expect(formatDate('2025-03-07T10:00:00.000Z')).toBe('07/03/2025');
    expect(formatDate('2024-02-29')).toBe('29/02/2024');
    expect(formatDate(new Date(2024, 11, 31))).toBe('31/12/2024');
    expect(formatDate(null)).toBe('');
    expect(formatDate('pas une date')).toBe('');
    expect(formatDate('2023-02-29')).toBe('');
    expect(formatDate(new Date(Number.NaN))).toBe('');
  });

  it('formats an instant to the minute, in the browser\'s time zone', () => {
    expect(formatDateTime(new Date(2026, 10, 26, 9, 5))).toBe('26/11/2026 à 09:05');
    expect(formatDateTime(new Date(2026, 10, 26, 14, 30).toISOString())).toBe('26/11/2026 à 14:30');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('pas une date')).toBe('');
  });

  it('formats amounts the French way', () => {
    // Intl uses a narrow no-break space for thousands and a no-break space before the sign.
    expect(formatEuros(1234.56).replace(/\s/g, ' ')).toBe('1 234,56 €');
    expect(formatEuros(0).replace(/\s/g, ' ')).toBe('0,00 €');
    expect(formatEuros(null)).toBe('');
  });

  it('formats E.164 phones as French numbers', () => {
    expect(formatPhone('+33612345678')).toBe('06 12 34 56 78');
    expect(formatPhone(null)).toBe('');
  });

  it('formats plates as printed on them', () => {
    expect(formatPlate('AB123CD')).toBe('AB-123-CD');
    expect(formatPlate(null)).toBe('');
  });

  it('writes counts with French thousands separators, and 0 and 1 in the singular', () => {
    expect(formatCount(1234567)).toBe('1\u202f234\u202f567');
    expect(formatCount(999)).toBe('999');
    // By hand for whole numbers, exactly as Intl writes them.
    for (const n of [0, 7, 1000, 12345, 999999, 1000000, -4321, 2 ** 53 - 1, 1234.5, -0.25]) {
      expect(formatCount(n)).toBe(new Intl.NumberFormat('fr-FR').format(n));
    }
    expect(plural(0, 'véhicule')).toBe('0 véhicule');
    expect(plural(1, 'véhicule')).toBe('1 véhicule');
    expect(plural(12345, 'sinistre').replace(/\s/g, ' ')).toBe('12 345 sinistres');
  });
});
