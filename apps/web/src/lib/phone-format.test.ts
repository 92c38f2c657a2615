import { formatPhone as libphonenumberFormat } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { formatPhone, loadPhoneFormatter } from './format';

// formatPhone shows French numbers without libphonenumber (decision 015): it must write exactly
// what the contract's formatPhone (libphonenumber-js/min) writes.

/** Deterministic pseudo-random national numbers (9 digits after +33) starting with `lead`. */
function frenchNumbers(lead: string, count: number): string[] {
  let seed = Number(lead) * 7919 + 17;
  const next = () => {
    seed = (seed * 48271) % 2147483647;
    return seed;
  };
  return Array.from({ length: count }, () => `+33${lead}${String(next() % 10 ** (9 - lead.length)).padStart(9 - lead.length, '0')}`);
}

describe('formatPhone', () => {
  it('writes French mobiles and landlines the way libphonenumber does, without it', () => {
    expect(formatPhone('+33612345678')).toBe('06 12 34 56 78');
    expect(formatPhone('+33755512345')).toBe('07 55 51 23 45');
    expect(formatPhone('+33142685300')).toBe('01 42 68 53 00');
    expect(formatPhone('+33491000000')).toBe('04 91 00 00 00');
    expect(formatPhone('+33972123456')).toBe('09 72 12 34 56');
    expect(formatPhone('+33800123456')).toBe('0 800 12 34 56');
    expect(formatPhone(null)).toBe('');
    expect(formatPhone('')).toBe('');
  });

  it('agrees with libphonenumber on every leading digit of a French number', () => {
    for (const lead of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '60', '61', '69', '73', '78', '80', '81', '89', '97', '99']) {
      for (const e164 of frenchNumbers(lead, 200)) expect(formatPhone(e164), e164).toBe(libphonenumberFormat(e164));
    }
  });

  it('shows a foreign number as stored until libphonenumber has loaded, then internationally', async () => {
    const foreign = ['+442079460958', '+32470123456', '+4915123456789', '+12025550143', '+41446681800', '+262262123456'];
    await loadPhoneFormatter();
    for (const e164 of foreign) expect(formatPhone(e164), e164).toBe(libphonenumberFormat(e164));
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958');
    expect(formatPhone('+32470123456')).toBe('+32 470 12 34 56');
  });
});
