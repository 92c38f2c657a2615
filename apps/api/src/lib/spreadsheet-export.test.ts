import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { contentDisposition, csvField, csvLine, csvValue, exportFileName, frenchAmount, frenchDate, frenchNumber, neutralise, xlsxValue } from './spreadsheet-export.js';

describe('French values', () => {
  it('writes days dd/mm/yyyy', () => {
    expect(frenchDate('2026-11-26')).toBe('26/11/2026');
    expect(frenchDate('2024-02-29')).toBe('29/02/2024');
  });

  it.each([
    [0, '0,00'],
    [5, '5,00'],
    [12.5, '12,50'],
    [999.99, '999,99'],
    [1234.56, '1 234,56'],
    [1_000_000, '1 000 000,00'],
    [-1234.56, '-1 234,56'],
    [0.1 + 0.2, '0,30'],
    [-0.001, '0,00'],
  ])('writes the amount %s as %s', (amount, text) => {
    expect(frenchAmount(amount)).toBe(text);
  });

  it('writes numbers with a decimal comma', () => {
    expect(frenchNumber(50)).toBe('50');
    expect(frenchNumber(12.5)).toBe('12,5');
  });
});

describe('CSV injection', () => {
  it.each(['=1+1', '+33 6 12', '-2', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")'])('neutralises %j with an apostrophe', (text) => {
    expect(neutralise(text)).toBe(`'${text}`);
  });

  it.each(['Peugeot', '1+1', 'a=b', "'déjà", ' =espace', ''])('leaves %j alone', (text) => {
    expect(neutralise(text)).toBe(text);
  });

  it('neutralises text cells, never numbers or dates the server writes', () => {
    expect(csvValue('text', '-Dupont')).toBe("'-Dupont");
    expect(csvValue('text', '=cmd|" /C calc"!A0')).toBe(`"'=cmd|"" /C calc""!A0"`);
    expect(csvValue('euros', -12.5)).toBe('-12,50');
    expect(csvValue('date', '2026-01-02')).toBe('02/01/2026');
  });
});

describe('CSV fields', () => {
  it('quotes a field holding ;, a quote or a line break, doubling its quotes', () => {
    expect(csvField('simple')).toBe('simple');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('dit "bonjour"')).toBe('"dit ""bonjour"""');
    expect(csvField('ligne 1\r\nligne 2')).toBe('"ligne 1\r\nligne 2"');
    expect(csvField('ligne\n')).toBe('"ligne\n"');
    expect(csvField('virgule, ok')).toBe('virgule, ok');
  });

  it('writes each type the French way', () => {
    expect(csvValue('plate', 'AB123CD')).toBe('AB-123-CD');
    expect(csvValue('plate', '1234AB75')).toBe('1234 AB 75');
    expect(csvValue('boolean', true)).toBe('Oui');
    expect(csvValue('boolean', false)).toBe('Non');
    expect(csvValue('number', 50)).toBe('50');
    expect(csvValue('euros', 1234.5)).toBe('1 234,50');
    expect(csvValue('text', null)).toBe('');
    expect(csvValue('date', undefined)).toBe('');
  });

  it('reads back, through a maintained parser, exactly what was written (any text)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { minLength: 1, maxLength: 6 }), (texts) => {
        const line = csvLine(texts.map((text) => csvField(neutralise(text))));
        const parsed = Papa.parse<string[]>(line, { delimiter: ';', newline: '\r\n', skipEmptyLines: false });
        expect(parsed.data[0]).toEqual(texts.map(neutralise));
      }),
      { numRuns: 500 },
    );
  });
});

describe('XLSX values', () => {
  it('keeps types: dates at midnight UTC, numbers, Oui/Non, formulas as strings', () => {
    expect(xlsxValue('date', '2026-11-26')).toEqual(new Date(Date.UTC(2026, 10, 26)));
    expect(xlsxValue('euros', 1234.56)).toBe(1234.56);
    expect(xlsxValue('boolean', true)).toBe('Oui');
    expect(xlsxValue('plate', 'AB123CD')).toBe('AB-123-CD');
    expect(xlsxValue('text', '=1+1')).toBe('=1+1');
    expect(xlsxValue('text', null)).toBeNull();
  });
});

describe('file names', () => {
  it('names the file with the register and the day', () => {
    expect(exportFileName('vehicules', '2026-11-26', 'csv')).toBe('vehicules-2026-11-26.csv');
  });

  it('encodes the name for every client (RFC 6266)', () => {
    expect(contentDisposition('vehicules-2026-11-26.csv')).toBe(`attachment; filename="vehicules-2026-11-26.csv"; filename*=UTF-8''vehicules-2026-11-26.csv`);
    expect(contentDisposition('véhicules "été".xlsx')).toBe(`attachment; filename="vehicules _ete_.xlsx"; filename*=UTF-8''v%C3%A9hicules%20%22%C3%A9t%C3%A9%22.xlsx`);
  });
});
