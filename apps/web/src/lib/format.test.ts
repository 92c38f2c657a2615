import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatEuros, formatPhone, formatPlate, plural, todayIso } from './format';

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

  it('writes every amount exactly as Intl’s fr-FR currency format does, without loading it', () => {
    const intl = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
    const amounts = [
      0, -0, 0.001, -0.001, 0.004, 0.005, 0.0049, 0.01, 0.125, 1.005, 1.015, 2.675, -1234.565, 999.995, 9.999, 1234.56, 1e6, 123456789.999,
      28076.82, 1e15 + 0.5, 2 ** 53, 1e20, 1e-6, 1e-7, 1e21, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_SAFE_INTEGER,
    ];
    // And a spread of cents, sums of cents as a total is, and values of every size.
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 3_000; i += 1) {
      amounts.push(Math.round(random() * 1e7) / 100, (random() - 0.5) * 10 ** Math.floor(random() * 12), Math.floor(random() * 1000) / 1000 - 0.5);
    }
    const differing = amounts.filter((amount) => formatEuros(amount) !== intl.format(amount)).map((amount) => `${amount}: ${formatEuros(amount)} ≠ ${intl.format(amount)}`);
    expect(differing).toEqual([]);
    expect(amounts.length).toBeGreaterThan(9_000);
  });

  it('knows the day in France, summer time included, exactly as Intl’s Europe/Paris does', () => {
    const intl = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
    const instants: Date[] = [];
    // Every hour from 1995 to 2031, and every minute around each change of time and midnight.
    for (let time = Date.UTC(1995, 0, 1); time < Date.UTC(2031, 0, 1); time += 3_600_000) instants.push(new Date(time));
    for (let year = 1996; year <= 2099; year += 1) {
      for (const month of [2, 9]) {
        for (let day = 22; day <= 31; day += 1) {
          for (let minute = -90; minute <= 90; minute += 1) instants.push(new Date(Date.UTC(year, month, day, 0, minute)));
        }
      }
    }
    instants.push(new Date(Date.UTC(2099, 11, 31, 23, 30)), new Date(Date.UTC(2100, 0, 1, 0, 30)), new Date(Date.UTC(1970, 6, 1, 22, 30)));
    const differing = instants.filter((instant) => todayIso(instant) !== intl.format(instant)).map((instant) => `${instant.toISOString()}: ${todayIso(instant)}`);
    expect(differing).toEqual([]);
    expect(instants.length).toBeGreaterThan(600_000);
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
