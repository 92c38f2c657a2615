import { describe, expect, it } from 'vitest';
import { formatAmountInput, parseAmountInput } from './amount-input';

describe('parseAmountInput', () => {
  it.each([
    ['1 234,56', 1234.56],
    ['1\u00a0234,56', 1234.56],
    ['1\u202f234,56 €', 1234.56],
    ['1234,5', 1234.5],
    ['1234.56', 1234.56],
    ['1.234,56', 1234.56],
    ['1,234.56', 1234.56],
    ['12', 12],
    [' 0 ', 0],
  ])('reads %j as %d', (text, amount) => {
    expect(parseAmountInput(text)).toBe(amount);
  });

  it('gives null for an empty field and NaN for text', () => {
    expect(parseAmountInput('  ')).toBeNull();
    expect(parseAmountInput('douze')).toBeNaN();
    expect(parseAmountInput('12,3,4')).toBeNaN();
  });

  it('keeps a minus sign for the schema to refuse', () => {
    expect(parseAmountInput('-10')).toBe(-10);
  });
});

describe('formatAmountInput', () => {
  it('writes the amount the French way, without the euro sign', () => {
    expect(formatAmountInput(1234.5)).toBe('1\u202f234,50');
    expect(formatAmountInput(null)).toBe('');
  });
});
