import { describe, expect, it } from 'vitest';
import { parisMidnight, tierInForce } from './tiers.js';

describe('parisMidnight', () => {
  it.each([
    ['2026-01-01', '2025-12-31T23:00:00.000Z'],
    ['2026-07-01', '2026-06-30T22:00:00.000Z'],
    // The days clocks change (at 02:00 and 03:00): midnight is still before the change.
    ['2026-03-29', '2026-03-28T23:00:00.000Z'],
    ['2026-03-30', '2026-03-29T22:00:00.000Z'],
    ['2026-10-25', '2026-10-24T22:00:00.000Z'],
    ['2026-10-26', '2026-10-25T23:00:00.000Z'],
  ])('%s starts at %s', (day, instant) => {
    expect(parisMidnight(day).toISOString()).toBe(instant);
  });
});

describe('tierInForce', () => {
  const tiers = [
    { title: 'A', startAt: parisMidnight('2025-01-01') },
    { title: 'C', startAt: parisMidnight('2026-07-01') },
    { title: 'B', startAt: parisMidnight('2026-01-01') },
  ];
  const at = (iso: string) => tierInForce(tiers, new Date(iso))?.title ?? null;

  it('is none before the first start', () => {
    expect(at('2024-12-31T22:59:59.999Z')).toBeNull();
  });

  it('is a tier from midnight of its start day in Paris, not a millisecond earlier', () => {
    expect(at('2025-12-31T22:59:59.999Z')).toBe('A');
    expect(at('2025-12-31T23:00:00.000Z')).toBe('B');
    // Summer time: midnight in Paris is 22:00 UTC.
    expect(at('2026-06-30T21:59:59.999Z')).toBe('B');
    expect(at('2026-06-30T22:00:00.000Z')).toBe('C');
  });

  it('keeps the latest started, whatever the order it is given in', () => {
    expect(at('2030-01-01T00:00:00Z')).toBe('C');
    expect(tierInForce([], new Date())).toBeNull();
  });
});
