import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { excelSerialToIso, parseFrenchAmount, parseFrenchBoolean, parseFrenchDate, parsePercentage, parsePhone, parseVehiculeType } from './french-values.js';
import { mappingIssues, parseRows, suggestMapping } from './import.fields.js';
import { IMPORT_LIMITS, MESSAGES, readSpreadsheet } from './spreadsheet.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/import');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

async function refusal(buffer: Buffer): Promise<{ status: number; message: string }> {
  try {
    await readSpreadsheet(buffer);
  } catch (error) {
    if (error instanceof AppError) return { status: error.statusCode, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

/** An XLSX as a French fleet manager saves it: French headers, a date column, a formula, a percentage. */
async function frenchWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Notes'); // empty first sheet: the first with data is read
  const sheet = workbook.addWorksheet('Sinistres');
  sheet.addRow(['N° sinistre', 'Date de survenance', 'Immat.', 'Réglé', 'Provision', 'Coût total', 'Resp.', 'Corporel']);
  const rows = [
    ['S-001', new Date(Date.UTC(2025, 0, 12)), 'ab-123-cd', 1000, 234.56, null, 0.5, 'Oui'],
    ['S-002', 45700, 'EF 456 GH', '1 200,00 €', 0, null, 1, 'Non'],
  ];
  rows.forEach((values, i) => {
    const row = sheet.addRow(values);
    const line = i + 2;
    row.getCell(6).value = { formula: `D${line}+E${line}`, result: Number(values[3]) ? Number(values[3]) + Number(values[4]) : 1200 } as ExcelJS.CellFormulaValue;
    row.getCell(7).numFmt = '0%';
    row.getCell(2).numFmt = 'dd/mm/yyyy';
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('French values', () => {
  it('reads dates as French users write them', () => {
    expect(parseFrenchDate('15/03/2021')).toEqual({ value: '2021-03-15' });
    expect(parseFrenchDate('5/3/21')).toEqual({ value: '2021-03-05' });
    expect(parseFrenchDate('02/11/98')).toEqual({ value: '1998-11-02' });
    expect(parseFrenchDate('2020-06-30')).toEqual({ value: '2020-06-30' });
    expect(parseFrenchDate(45700)).toEqual({ value: '2025-02-12' });
    expect(parseFrenchDate('45700')).toEqual({ value: '2025-02-12' });
    expect(parseFrenchDate(new Date(Date.UTC(2024, 1, 29)))).toEqual({ value: '2024-02-29' });
    expect(excelSerialToIso(1)).toBe('1899-12-31');
    expect(parseFrenchDate('31/02/2018')).toEqual({ error: 'Date invalide (attendu jj/mm/aaaa)' });
    expect(parseFrenchDate('demain')).toHaveProperty('error');
    expect(parseFrenchDate('  ')).toEqual({ value: undefined });
  });

  it('reads amounts with every French thousands separator and both negative spellings', () => {
    expect(parseFrenchAmount('1 234,56 €')).toEqual({ value: 1234.56 });
    expect(parseFrenchAmount('1\u00a0234,56\u00a0€')).toEqual({ value: 1234.56 });
    expect(parseFrenchAmount('1\u202f234,56 €')).toEqual({ value: 1234.56 });
    expect(parseFrenchAmount('-1 234,56')).toEqual({ value: -1234.56 });
    expect(parseFrenchAmount('(1 234,56 €)')).toEqual({ value: -1234.56 });
    expect(parseFrenchAmount('1.234,56')).toEqual({ value: 1234.56 });
    expect(parseFrenchAmount('1234.5')).toEqual({ value: 1234.5 });
    expect(parseFrenchAmount('1 000 000')).toEqual({ value: 1000000 });
    expect(parseFrenchAmount(99.999)).toEqual({ value: 100 });
    expect(parseFrenchAmount('douze')).toEqual({ error: 'Montant invalide (ex. 1 234,56 €)' });
  });

  it('reads booleans, percentages, phones and categories', () => {
    for (const yes of ['Oui', 'O', 'x', '1', 'Vrai', 'OUI']) expect(parseFrenchBoolean(yes)).toEqual({ value: true });
    for (const no of ['Non', 'n', '0', 'Faux']) expect(parseFrenchBoolean(no)).toEqual({ value: false });
    expect(parseFrenchBoolean('peut-être')).toEqual({ error: 'Valeur attendue : Oui ou Non' });
    expect(parsePercentage('50 %')).toEqual({ value: 50 });
    expect(parsePercentage('25%')).toEqual({ value: 25 });
    expect(parsePercentage(0.75)).toEqual({ value: 75 });
    expect(parsePercentage('beaucoup')).toHaveProperty('error');
    expect(parsePhone(612345678)).toEqual({ value: '0612345678' });
    expect(parsePhone('0033 6 12 34 56 78')).toEqual({ value: '+33 6 12 34 56 78' });
    expect(parseVehiculeType('VUL')).toEqual({ value: 'VUL' });
    expect(parseVehiculeType('utilitaire léger')).toEqual({ value: 'VUL' });
    expect(parseVehiculeType('Tracteur routier')).toEqual({ value: 'TRACTEUR' });
  });
});

describe('CSV files', () => {
  it('detects Windows-1252 and ; in an Excel-FR file, and keeps Excel row numbers', async () => {
    const sheet = await readSpreadsheet(fixture('conducteurs-excel-fr.csv'));
    expect(sheet).toMatchObject({ format: 'csv', encoding: 'windows-1252', separator: ';', headers: ['Nom', 'Prénom', 'Tél.', 'E-mail'] });
    expect(sheet.rows).toHaveLength(6);
    expect(sheet.rows[0]).toEqual({ line: 2, cells: ['Lefèvre', 'Hélène', '06 12 34 56 78', 'helene.lefevre@transports-alpha.fr'] });
  });

  it('reads UTF-8 with a BOM, commas, CRLF and quoted fields holding separators and line breaks', async () => {
    const sheet = await readSpreadsheet(fixture('vehicules-utf8-bom-virgule.csv'));
    expect(sheet).toMatchObject({ encoding: 'utf-8', separator: ',', headers: ['Immatriculation', 'Marque', 'Modèle', 'Catégorie'] });
    expect(sheet.rows.map((r) => r.cells[2])).toEqual(['Clio, série limitée', '208\r\nGT Line']);
    expect(sheet.rows.map((r) => r.line)).toEqual([2, 3]);
  });

  it('reads tab-separated UTF-8 without a BOM', async () => {
    const sheet = await readSpreadsheet(fixture('conducteurs-tabulations.csv'));
    expect(sheet).toMatchObject({ encoding: 'utf-8', separator: '\t', headers: ['Prénom', 'Nom', 'Téléphone'] });
    expect(sheet.rows[0]!.cells).toEqual(['Élise', 'Garçon', '0612345678']);
  });

  it('reads a messy claims statement: € in cp1252, amounts as text, a multi-line circumstance', async () => {
    const sheet = await readSpreadsheet(fixture('sinistres-excel-fr.csv'));
    expect(sheet.encoding).toBe('windows-1252');
    expect(sheet.rows[0]!.cells[5]).toBe('1 234,56 €');
    expect(sheet.rows[0]!.cells[11]).toBe('Choc arrière; feu rouge\r\nau carrefour');
    // The first record spans two physical lines; Excel still shows it as row 2, the next as row 3.
    expect(sheet.rows.map((r) => r.line)).toEqual([2, 3, 4, 5]);
  });

  it('refuses bad files with a clear French message', async () => {
    expect(await refusal(fixture('vide.csv'))).toEqual({ status: 400, message: MESSAGES.empty });
    expect(await refusal(fixture('entetes-seules.csv'))).toEqual({ status: 400, message: MESSAGES.noData });
    expect(await refusal(fixture('binaire-renomme.csv'))).toEqual({ status: 400, message: MESSAGES.notSpreadsheet });
    expect(await refusal(fixture('ancien-excel.xls'))).toEqual({ status: 400, message: MESSAGES.xls });
    expect(await refusal(Buffer.from('\r\n\r\n;;;\r\n'))).toEqual({ status: 400, message: MESSAGES.empty });
    expect(await refusal(Buffer.alloc(IMPORT_LIMITS.maxBytes + 1, 'a'))).toEqual({ status: 413, message: MESSAGES.tooLarge });
  });

  it('refuses a text in an encoding it cannot read (UTF-16 big-endian, UTF-16 without its mark) in French, and reads Excel’s UTF-16', async () => {
    const text = 'Nom;Prénom;Téléphone\r\nÉcuyer;Élodie;06 12 34 56 78\r\n';
    const bigEndian = Buffer.from(text, 'utf16le').swap16();
    expect(await refusal(Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian]))).toEqual({ status: 400, message: MESSAGES.notSpreadsheet });
    expect(await refusal(Buffer.from(text, 'utf16le'))).toEqual({ status: 400, message: MESSAGES.notSpreadsheet });
    const excel = await readSpreadsheet(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(excel).toMatchObject({ format: 'csv', encoding: 'utf-16le', headers: ['Nom', 'Prénom', 'Téléphone'] });
  });

  it('refuses 100 001 rows and accepts 100 000', async () => {
    const make = (n: number) => Buffer.from(`Immat.;Marque;Modèle\r\n${Array.from({ length: n }, (_, i) => `AA-${String(i % 1000).padStart(3, '0')}-BB;Renault;Clio\r\n`).join('')}`);
    expect(await refusal(make(100_001))).toEqual({ status: 400, message: MESSAGES.tooManyRows });
    expect((await readSpreadsheet(make(100_000))).rows).toHaveLength(100_000);
  });
});

describe('XLSX files', () => {
  it('reads the first sheet with data: formulas as their values, dates and serials, percentages', async () => {
    const sheet = await readSpreadsheet(await frenchWorkbook());
    expect(sheet.format).toBe('xlsx');
    expect(sheet.headers).toEqual(['N° sinistre', 'Date de survenance', 'Immat.', 'Réglé', 'Provision', 'Coût total', 'Resp.', 'Corporel']);
    expect(sheet.rows[0]).toEqual({ line: 2, cells: ['S-001', new Date(Date.UTC(2025, 0, 12)), 'ab-123-cd', 1000, 234.56, 1234.56, '50 %', 'Oui'] });
    expect(sheet.rows[1]!.cells.slice(1, 7)).toEqual([new Date(Date.UTC(2025, 1, 12)), 'EF 456 GH', '1 200,00 €', 0, 1200, '100 %']);
  });

  it('refuses a zip bomb from its directory, before decompressing anything', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Feuil1');
    sheet.addRow(['Immat.']);
    sheet.addRow(['A'.repeat(8 * 1024 * 1024)]);
    const bomb = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(bomb.length).toBeLessThan(200_000);
    expect(await refusal(bomb)).toEqual({ status: 400, message: MESSAGES.zipBomb });
  });

  it('refuses a zip that is not a workbook, and a broken one', async () => {
    const notWorkbook = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    expect(await refusal(notWorkbook)).toEqual({ status: 400, message: MESSAGES.badXlsx });
  });
});

describe('mapping and rows', () => {
  it('suggests a mapping from loose French headers', () => {
    const headers = ['N° sinistre', 'Date de survenance', 'Immat.', 'Conducteur', 'Ville', 'Coût total', 'Réglé', 'Provision', 'Resp.', 'Corporel', 'Tiers impliqué', 'Circonstances'];
    const mapping = suggestMapping('sinister', headers, null);
    expect(mapping).toMatchObject({ sinisterIntermediateRef: 0, sinisterDate: 1, immatriculation: 2, driver: 3, city: 4, totalCost: 5, paidAmount: 6, reserveAmount: 7, responsibilityRate: 8, hasHumanInjury: 9, isThirdImplicated: 10, description: 11, ida: null });
    expect(suggestMapping('driver', ['NOM', 'Prénom', 'Tél.', 'Courriel'], null)).toEqual({ lastName: 0, firstName: 1, phone: 2, email: 3 });
    expect(suggestMapping('vehicule', ['Marque', 'Modèle', 'Immatriculation'], null)).toMatchObject({ brand: 0, model: 1, immatriculation: 2, type: null });
  });

  it("starts from the organization's last mapping where the headers are the same", () => {
    const last = { mapping: { lastName: 1, firstName: 0, phone: 3, email: null }, headers: ['Col A', 'Col B', 'x', 'Joignable au'] };
    expect(suggestMapping('driver', ['Col B', 'Col A', 'Joignable au', 'E-mail'], last)).toEqual({ lastName: 0, firstName: 1, phone: 2, email: 3 });
  });

  it('names a mapping’s mistakes', () => {
    expect(mappingIssues('vehicule', 'upsert', { immatriculation: 0, brand: 0 }, ['Immat.'])).toEqual([
      { path: 'mapping.brand', message: 'La colonne « Immat. » est déjà liée à « Immatriculation »' },
      { path: 'mapping.model', message: '« Modèle » est obligatoire : choisissez sa colonne' },
    ]);
    expect(mappingIssues('vehicule', 'compare', { immatriculation: 0 }, ['Immat.'])).toEqual([]);
    expect(mappingIssues('driver', 'upsert', { nickname: 0, lastName: 5, firstName: null, phone: null }, ['a'])[0]).toEqual({ path: 'mapping.nickname', message: 'Champ inconnu : nickname' });
  });

  it('checks each row with the contract’s rules and French messages, on Excel row numbers', async () => {
    const sheet = await readSpreadsheet(fixture('conducteurs-excel-fr.csv'));
    const { valid, errors } = parseRows<{ phone: string }>('driver', 'upsert', { lastName: 0, firstName: 1, phone: 2, email: 3 }, sheet.headers, sheet.rows);
    expect(valid.map((r) => r.values.phone)).toEqual(['+33612345678', '+33698765432', '+33145678901', '+33711223344']);
    expect(errors).toEqual([
      { line: 6, field: 'lastName', column: 'Nom', message: 'Nom : valeur obligatoire' },
      { line: 7, field: 'email', column: 'E-mail', message: 'Adresse e-mail invalide' },
      { line: 7, field: 'phone', column: 'Tél.', message: 'Numéro de téléphone invalide (ex. 06 12 34 56 78)' },
    ]);
  });

  it('normalises plates and reads vehicles of an Excel-FR file', async () => {
    const sheet = await readSpreadsheet(fixture('vehicules-excel-fr.csv'));
    const mapping = suggestMapping('vehicule', sheet.headers, null);
    const { valid, errors } = parseRows<{ immatriculation: string; type: string }>('vehicule', 'upsert', mapping, sheet.headers, sheet.rows);
    expect(valid.map((r) => [r.values.immatriculation, r.values.type])).toEqual([['AB123CD', 'VP'], ['EF456GH', 'VUL'], ['IJ789KL', 'VUL']]);
    expect(errors.map((e) => [e.line, e.field])).toEqual([[5, 'circulationDate'], [6, 'brand']]);
  });
});
