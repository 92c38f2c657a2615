import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURED, openVehiculeFleets } from '../../../test/fixtures/vehicules.js';
import type { TestContext } from '../../../test/test-app.js';

let t: TestContext;
let userA: string;
let adminA: string;
let outsider: string;
let orphan: string;

beforeAll(async () => {
  const fleets = await openVehiculeFleets(['userA', 'adminA', 'outsider', 'orphan']);
  ({ t } = fleets);
  ({ userA, adminA, outsider, orphan } = fleets.tokens);
});
afterAll(() => t.close());

const exportOf = (token: string, query: string) => t.as(token, { method: 'GET', url: `/api/vehicule/export?${query}` });

async function workbookOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook;
}

describe('GET /api/vehicule/export', () => {
  it('writes the filtered view as a French CSV: BOM, ;, CRLF, dd/mm/yyyy, plates shown', async () => {
    const response = await exportOf(userA, `format=csv&${FEATURED}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="vehicules-\d{4}-\d{2}-\d{2}\.csv"; filename\*=UTF-8''vehicules-\d{4}-\d{2}-\d{2}\.csv$/);
    const vul = 'VUL (utilitaire léger ≤ 3,5 t)';
    expect(response.rawPayload.toString('utf8')).toBe(
      '\uFEFF' +
        [
          "Immatriculation;Marque;Modèle;Catégorie;Date de mise en circulation;Date d'entrée;Date de sortie",
          '1234 AB 75;Iveco;Daily;PL (poids lourd > 3,5 t);01/07/2015;01/01/2024;',
          'AB-123-CD;Peugeot;308;VP (véhicule particulier);01/03/2019;15/01/2020;',
          'EF-456-GH;Renault;Mégane;VP (véhicule particulier);10/05/2018;01/06/2021;30/06/2024',
          `JK-789-LM;Citroën;Berlingo;${vul};02/02/2021;01/01/2022;`,
          `MAB1234;Volkswagen;Crafter;${vul};09/09/2020;15/03/2023;14/03/2025`,
          `NP-321-QR;Renault;Trafic;${vul};;;31/12/2023`,
          '',
        ].join('\r\n'),
    );
  });

  it('writes an XLSX with typed cells, the header frozen and filters on', async () => {
    const response = await exportOf(userA, `format=xlsx&${FEATURED}&sortBy=-entryDate`);
    expect(response.statusCode, response.body).toBe(200);
    const workbook = await workbookOf(response.rawPayload);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Véhicules');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Immatriculation', 'Marque', 'Modèle', 'Catégorie', 'Date de mise en circulation', "Date d'entrée", 'Date de sortie']);
    expect(sheet.rowCount).toBe(7);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:G7');
    // Going down, unknown entry dates first (PostgreSQL's NULLS FIRST), as the list sorts them.
    expect(sheet.getColumn(1).values.slice(2)).toEqual(['NP-321-QR', '1234 AB 75', 'MAB1234', 'JK-789-LM', 'EF-456-GH', 'AB-123-CD']);
    const peugeot = sheet.getRow(7);
    expect(peugeot.getCell(5).value).toEqual(new Date(Date.UTC(2019, 2, 1)));
    expect(peugeot.getCell(5).type).toBe(ExcelJS.ValueType.Date);
    expect(peugeot.getCell(5).numFmt).toBe('dd/mm/yyyy');
    expect(peugeot.getCell(7).value).toBeNull();
    expect(peugeot.getCell(4).value).toBe('VP (véhicule particulier)');
  });

  it('exports every member\'s view, the archived ones when asked, never another organization\'s', async () => {
    const admin = await exportOf(adminA, 'format=csv&onlyArchived=true');
    expect(admin.rawPayload.toString('utf8').split('\r\n').slice(1, -1).map((line) => line.split(';')[0])).toEqual(['AB-124-CD', 'XY-999-ZA']);
    const beta = (await exportOf(outsider, 'format=csv&withArchived=true')).rawPayload.toString('utf8');
    expect(beta.split('\r\n').slice(1, -1).map((line) => line.split(';').slice(0, 3).join(';'))).toEqual(['AB-123-CD;Secret;Bêta', 'ZZ-999-ZZ;Secret;Archivé']);
    expect((await exportOf(orphan, 'format=csv')).statusCode).toBe(403);
  });

  it('searches a plate in any spelling, as the list does; a bad category is a French 400', async () => {
    const found = (await exportOf(userA, 'format=csv&search=ab 123 cd')).rawPayload.toString('utf8');
    expect(found.split('\r\n').slice(1, -1).map((line) => line.split(';')[0])).toEqual(['AB-123-CD']);
    const bad = await exportOf(userA, 'format=xlsx&types=VP,XX');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Catégorie inconnue : XX');
  });
});
