import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_BATCH, listRows } from '../db/list-export.js';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser } from '../seed/factories.js';
import { driverList } from '../modules/drivers/drivers.repository.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

// The exports of the drivers and claims registers (the vehicles': vehicules.export.test.ts), and
// what every export shares: isolation, roles, bad input, streaming.
let t: TestContext;
let admin: string;
let user: string;
let outsider: string;
let orphan: string;
let bigOrg: string;
const BIG = process.env.TEST_DB === 'pglite' ? 20_000 : 100_000;

beforeAll(async () => {
  t = await createTestApp();
  bigOrg = await t.seed(async (tx) => {
    const alpha = await createOrganization(tx, { title: 'Transports Alpha' });
    const beta = await createOrganization(tx, { title: 'Bêta BTP' });
    const big = await createOrganization(tx, { title: 'Grand Compte' });
    const a = await createUser(tx, { email: 'admin@alpha.fr' });
    const u = await createUser(tx, { email: 'user@alpha.fr' });
    const b = await createUser(tx, { email: 'admin@beta.fr' });
    await createUser(tx, { email: 'orphelin@exemple.fr' });
    await linkUser(tx, alpha.uuid, a.uuid, 'ADMIN');
    await linkUser(tx, alpha.uuid, u.uuid);
    await linkUser(tx, beta.uuid, b.uuid, 'ADMIN');
    const [elodie, jerome] = await createDrivers(tx, alpha.uuid, [
      { firstName: 'Élodie', lastName: 'Écuyer', email: 'elodie@alpha.fr', phone: '+33612345678' },
      { firstName: 'Jérôme', lastName: 'Bernard', email: null, phone: '+442079460958' },
      { firstName: '=HYPERLINK("http://x")', lastName: '-Dupont', email: '@pirate', phone: null },
      { firstName: 'Anne; Marie', lastName: 'Dit "Nana"', email: null, phone: null },
      { firstName: 'Ancien', lastName: 'Parti', archivedAt: new Date('2025-01-01') },
    ]);
    await createDrivers(tx, beta.uuid, [{ firstName: 'Secret', lastName: 'Bêta' }]);
    const [clio] = await createVehicules(tx, alpha.uuid, [{ immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Clio' }]);
    await createSinisters(tx, alpha.uuid, [
      {
        sinisterIntermediateRef: 'SIN-001',
        sinisterDate: '2026-03-14',
        city: 'Lyon',
        vehiculeUuid: clio!.uuid,
        driverUuid: elodie!.uuid,
        guaranteeLabel: 'Bris de glace',
        status: 'inProgress',
        paidCents: 123456,
        reserveCents: 50,
        isDeclared: true,
        responsibilityRate: 50,
        hasHumanInjury: true,
        description: 'Pare-brise fissuré\r\nsur autoroute',
      },
      { sinisterIntermediateRef: 'SIN-002', sinisterDate: '2026-01-02', city: null, driverUuid: jerome!.uuid, status: 'closed', totalCostCents: 100000000, isDeclared: false, responsibilityRate: null },
      { sinisterIntermediateRef: 'SIN-003', sinisterDate: '2025-12-31', archivedAt: new Date('2026-01-05') },
    ]);
    await createSinisters(tx, beta.uuid, [{ sinisterIntermediateRef: 'SECRET-B', sinisterDate: '2026-02-02' }]);
    return big.uuid;
  });
  // A large register, written by PostgreSQL itself, 10 000 rows per statement (each within a request's time limit).
  for (let from = 1; from <= BIG; from += 10_000) {
    await t.seed((tx) =>
      tx.execute(
        sql`insert into drivers (organization_uuid, first_name, last_name, email, phone) select ${bigOrg}, 'Prénom ' || i, 'Nom ' || lpad(i::text, 6, '0'), 'conducteur' || i || '@grand.fr', '+336' || lpad(i::text, 8, '0') from generate_series(${from}::int, ${from + 9_999}::int) as i`,
      ),
    );
  }
  admin = await t.login('admin@alpha.fr');
  user = await t.login('user@alpha.fr');
  outsider = await t.login('admin@beta.fr');
  orphan = await t.login('orphelin@exemple.fr');
}, 180_000);
afterAll(() => t.close());

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
const text = (response: { rawPayload: Buffer }) => response.rawPayload.toString('utf8');

async function sheetOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}

describe('GET /api/driver/export', () => {
  it('writes the drivers sorted by name, formulas neutralised, quotes and separators escaped', async () => {
    const response = await get(user, '/api/driver/export?format=csv');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/filename="conducteurs-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(text(response)).toBe(
      '\uFEFF' +
        [
          'Nom;Prénom;E-mail;Téléphone',
          "'-Dupont;\"'=HYPERLINK(\"\"http://x\"\")\";'@pirate;",
          'Bernard;Jérôme;;"\'+44 20 7946 0958"'.replace('"\'+44 20 7946 0958"', "'+44 20 7946 0958"),
          'Dit "Nana";"Anne; Marie";;'.replace('Dit "Nana"', '"Dit ""Nana"""'),
          'Écuyer;Élodie;elodie@alpha.fr;06 12 34 56 78',
          '',
        ].join('\r\n'),
    );
  });

  it('follows the list: search, archived, sort', async () => {
    expect(text(await get(user, '/api/driver/export?format=csv&search=ecuy')).split('\r\n').slice(1)).toEqual(['Écuyer;Élodie;elodie@alpha.fr;06 12 34 56 78', '']);
    expect(text(await get(user, '/api/driver/export?format=csv&onlyArchived=true')).split('\r\n').slice(1)).toEqual(['Parti;Ancien;;', '']);
    const byFirstName = text(await get(user, '/api/driver/export?format=csv&sortBy=-firstName&page=2&limit=1')).split('\r\n').slice(1, -1);
    expect(byFirstName.map((line) => line.split(';')[0])).toEqual(['Bernard', 'Écuyer', '"Dit ""Nana"""', "'-Dupont"]);
  });

  it('keeps a formula a string cell in XLSX', async () => {
    const response = await get(admin, '/api/driver/export?format=xlsx');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const sheet = await sheetOf(response.rawPayload);
    expect(sheet.name).toBe('Conducteurs');
    const cell = sheet.getCell('B2');
    expect(cell.value).toBe('=HYPERLINK("http://x")');
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getCell('A2').value).toBe('-Dupont');
  });
});

describe('GET /api/sinister/export', () => {
  it('writes amounts 1 234,56, dates dd/mm/yyyy, Oui/Non, plates, names and line breaks', async () => {
    const response = await get(user, '/api/sinister/export?format=csv');
    expect(response.statusCode, response.body).toBe(200);
    const lines = text(response).slice(1).split(/\r\n(?=SIN-|$)/);
    expect(lines[0]).toBe(
      "N° sinistre;Date de survenance;Ville;Immatriculation;Nom du conducteur;Prénom du conducteur;Garantie;Statut;Déclaré;Responsabilité (%);Dommages corporels;Véhicule endommagé;Tiers impliqué;IDA;Date d'ouverture;Date de clôture;Réglé;Provision;Coût total;Circonstances",
    );
    expect(lines[1]).toBe(
      'SIN-001;14/03/2026;Lyon;AB-123-CD;Écuyer;Élodie;Bris de glace;En cours;Oui;50;Oui;Non;Non;Non;14/03/2026;;1 234,56;0,50;1 235,06;"Pare-brise fissuré\r\nsur autoroute"',
    );
    expect(lines[2]).toBe('SIN-002;02/01/2026;;;Bernard;Jérôme;Responsabilité civile;Clos;Non;;Non;Non;Non;Non;02/01/2026;02/01/2026;1 000 000,00;0,00;1 000 000,00;');
    expect(lines).toEqual([expect.any(String), expect.any(String), expect.any(String), '']);
    expect(text(response)).not.toContain('SECRET-B');
  });

  it('follows the filters and the sort', async () => {
    const refs = async (query: string) =>
      text(await get(user, `/api/sinister/export?format=csv&${query}`))
        .split('\r\n')
        .filter((line) => /^SIN-/.test(line))
        .map((line) => line.split(';')[0]);
    expect(await refs('')).toEqual(['SIN-001', 'SIN-002']);
    expect(await refs('sortBy=sinisterDate&withArchived=true')).toEqual(['SIN-003', 'SIN-002', 'SIN-001']);
    expect(await refs('showDeclared=true')).toEqual(['SIN-001']);
    expect(await refs('hasHumanInjury=true')).toEqual(['SIN-001']);
    expect(await refs('status=closed')).toEqual(['SIN-002']);
    expect(await refs('search=lyon')).toEqual(['SIN-001']);
    expect(await refs('startDate=2026-02-01&endDate=2026-12-31')).toEqual(['SIN-001']);
  });

  it('types the XLSX cells: dates, euros with their format, numbers; header frozen, filters on', async () => {
    const sheet = await sheetOf((await get(user, '/api/sinister/export?format=xlsx')).rawPayload);
    expect(sheet.name).toBe('Sinistres');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:T3');
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.getCell('A2').value).toBe('SIN-001');
    expect(sheet.getCell('B2').value).toEqual(new Date(Date.UTC(2026, 2, 14)));
    expect(sheet.getCell('B2').type).toBe(ExcelJS.ValueType.Date);
    expect(sheet.getCell('B2').numFmt).toBe('dd/mm/yyyy');
    expect(sheet.getCell('D2').value).toBe('AB-123-CD');
    expect(sheet.getCell('I2').value).toBe('Oui');
    expect(sheet.getCell('J2').value).toBe(50);
    expect(sheet.getCell('J3').value).toBeNull();
    expect(sheet.getCell('Q2').value).toBe(1234.56);
    expect(sheet.getCell('Q2').type).toBe(ExcelJS.ValueType.Number);
    expect(sheet.getCell('Q2').numFmt).toBe('#,##0.00 "€";-#,##0.00 "€"');
    expect(sheet.getCell('S3').value).toBe(1_000_000);
    // A line break in a cell is Excel's own: LF.
    expect(sheet.getCell('T2').value).toBe('Pare-brise fissuré\nsur autoroute');
  });
});

describe('every export', () => {
  it.each(['driver', 'vehicule', 'sinister'])('/api/%s/export shows another organization nothing of Alpha', async (register) => {
    const response = await get(outsider, `/api/${register}/export?format=csv&withArchived=true`);
    expect(response.statusCode).toBe(200);
    expect(text(response)).not.toMatch(/Écuyer|SIN-00|AB-123-CD/);
  });

  it('refuses a bad or missing format, and bad list parameters, in French', async () => {
    for (const [query, path, message] of [
      ['format=pdf', 'format', 'Format inconnu : csv ou xlsx'],
      ['', 'format', 'Le format est obligatoire : csv ou xlsx'],
      ['format=csv&sortBy=password', 'sortBy', undefined],
      ['format=csv&startDate=2026-02-01&endDate=2026-01-01', 'endDate', 'La date de début doit précéder la date de fin'],
    ] as const) {
      const url = query.startsWith('format=csv&s') ? `/api/sinister/export?${query}` : `/api/driver/export?${query}`;
      const response = await get(user, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toContain('application/json');
      const body = response.json();
      expect(body.details.some((d: { path: string }) => d.path === path), JSON.stringify(body)).toBe(true);
      if (message) expect(body.message).toContain(message);
    }
  });

  it('needs a login and an organization', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/vehicule/export?format=csv' })).statusCode).toBe(401);
    expect((await get(orphan, '/api/vehicule/export?format=csv')).statusCode).toBe(403);
  });
});

describe('streaming', () => {
  it(`reads ${BIG} rows in batches of ${EXPORT_BATCH}, one batch at a time`, async () => {
    const query = driverList.declaration.query.parse({});
    let rows = 0;
    let batches = 0;
    let previous = '';
    for await (const batch of listRows(t.database.db, bigOrg, driverList, query)) {
      expect(batch.length).toBeLessThanOrEqual(EXPORT_BATCH);
      expect(batch[0]!.lastName > previous).toBe(true);
      previous = batch.at(-1)!.lastName;
      rows += batch.length;
      batches++;
    }
    expect(rows).toBe(BIG);
    expect(batches).toBe(Math.ceil(BIG / EXPORT_BATCH));
  }, 120_000);

  it('stops reading when the caller stops (the client went away): the database is free again', async () => {
    const query = driverList.declaration.query.parse({});
    for await (const batch of listRows(t.database.db, bigOrg, driverList, query)) {
      expect(batch).toHaveLength(EXPORT_BATCH);
      break;
    }
    // The snapshot is over: a write on the same database goes through at once.
    expect((await get(user, '/api/driver/export?format=csv&search=ecuy')).statusCode).toBe(200);
  });

  it(`sends ${BIG} rows over HTTP with a flat heap`, async () => {
    const token = await t.seed(async (tx) => {
      const u = await createUser(tx, { email: 'gros@grand.fr' });
      await linkUser(tx, bigOrg, u.uuid);
      return u.uuid;
    });
    expect(token).toBeTruthy();
    const bearer = await t.login('gros@grand.fr');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address) as unknown as AddressInfo & URL;
    for (const format of ['csv', 'xlsx'] as const) {
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      let bytes = 0;
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: `/api/driver/export?format=${format}`, headers: { authorization: `Bearer ${bearer}` } }, (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            peak = Math.max(peak, process.memoryUsage().heapUsed);
          });
          res.on('end', resolve);
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
      // The file is megabytes (the XLSX compressed); the heap holds a batch or so of it at a time.
      expect(bytes).toBeGreaterThan(BIG * (format === 'csv' ? 50 : 20));
      expect(peak - before, `${format}: heap grew ${Math.round((peak - before) / 1e6)} MB for ${Math.round(bytes / 1e6)} MB sent`).toBeLessThan(BIG >= 100_000 ? 120e6 : 80e6);
    }
  }, 180_000);
});
