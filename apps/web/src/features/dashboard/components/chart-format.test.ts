import { describe, expect, it } from 'vitest';

describe('shortEuros (the charts’ axis ticks)', () => {
  it('keeps ticks apart under 10 k€ and rounds above', async () => {
    const { shortEuros } = await import('./chart-format');
    expect([800, 1000, 1200, 1400, 9950, 12_345].map(shortEuros)).toEqual(['800\u202f€', '1\u202fk€', '1,2\u202fk€', '1,4\u202fk€', '10\u202fk€', '12\u202fk€']);
  });
});
