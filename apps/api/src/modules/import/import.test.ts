import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drivers } from '../../db/schema/drivers.js';
import { imports } from '../../db/schema/imports.js';
import { mailOutbox } from '../../db/schema/mail.js';
import { registerCounts } from '../../db/schema/registers.js';
import { sinisters } from '../../db/schema/sinisters.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { createDrivers, createInsuranceIntermediary, createOrganization, createUser, createVehicules, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { multipartFile } from '../../../test/multipart.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/import');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

let t: TestContext;
let orgA: string;
let orgC: string;
let admin: string;
let user: string;
let outsider: string;
let orphan: string;
let fleetAdmin: string;

const upload = (token: string, entity: string, fileName: string, content: Buffer) => t.as(token, { method: 'POST', url: `/api/import/${entity}/preview`, ...multipartFile(fileName, content) });
const validate = (token: string, id: string, payload: object) => t.as(token, { method: 'POST', url: `/api/import/${id}/validate`, payload });
const commit = (token: string, id: string, payload: object) => t.as(token, { method: 'POST', url: `/api/import/${id}/commit`, payload });
const revert = (token: string, id: string) => t.as(token, { method: 'POST', url: `/api/import/${id}/revert` });
const status = (token: string, id: string) => t.as(token, { method: 'GET', url: `/api/import/${id}` });

async function previewed(token: string, entity: string, fileName: string, content: Buffer) {
  const response = await upload(token, entity, fileName, content);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ importId: string; suggestedMapping: Record<string, number | null>; headers: string[]; rowCount: number }>();
}

const count = (table: typeof drivers | typeof vehicules | typeof sinisters, org: string) =>
  t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.organizationUuid, org)))[0]!.n);
const registerVersion = (org: string, register: 'drivers' | 'vehicules' | 'sinisters') =>
  t.seed(async (tx) => (await tx.select().from(registerCounts).where(and(eq(registerCounts.organizationUuid, org), eq(registerCounts.register, register))))[0] ?? null);

/** DDL a test needs (a trigger that fails on purpose), as the database's owner. */
async function asOwner(statements: string) {
  const { pglite } = t.database;
  if (pglite) {
    await pglite.exec(`RESET ROLE; ${statements}; SET ROLE flotte_app;`);
    return;
  }
  const client = new pg.Client({ connectionString: (t.database as { url?: string }).url });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  ({ orgA, orgC } = await t.seed(async (tx) => {
    const a = await createOrganization(tx, { title: 'Transports Alpha' });
    const b = await createOrganization(tx, { title: 'Bêta BTP' });
    const c = await createOrganization(tx, { title: 'Gamma Livraisons' });
    const adminUser = await createUser(tx, { email: 'admin@alpha.fr' });
    const plain = await createUser(tx, { email: 'user@alpha.fr' });
    const foreign = await createUser(tx, { email: 'admin@beta.fr' });
    const fleet = await createUser(tx, { email: 'flotte@gamma.fr' });
    await createUser(tx, { email: 'orphelin@exemple.fr' });
    await linkUser(tx, a.uuid, adminUser.uuid, 'ADMIN');
    await linkUser(tx, a.uuid, plain.uuid);
    await linkUser(tx, b.uuid, foreign.uuid, 'ADMIN');
    await linkUser(tx, c.uuid, fleet.uuid, 'ADMIN');
    await createDrivers(tx, a.uuid, [{ firstName: 'Hélène', lastName: 'Lefèvre', email: 'helene.lefevre@transports-alpha.fr', phone: '+33600000000' }]);
    await createVehicules(tx, c.uuid, [
      { immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Clio', entryDate: '2020-01-01' },
      { immatriculation: 'EF-456-GH', brand: 'Peugeot', model: '208', entryDate: '2020-01-01' },
      { immatriculation: 'XY-999-ZA', brand: 'Citroën', model: 'C3', entryDate: '2019-05-01' },
    ]);
    await createInsuranceIntermediary(tx, c.uuid, { productionEmail: 'production@courtier-gamma.fr' });
    return { orgA: a.uuid, orgC: c.uuid };
  }));
  admin = await t.login('admin@alpha.fr');
  user = await t.login('user@alpha.fr');
  outsider = await t.login('admin@beta.fr');
  orphan = await t.login('orphelin@exemple.fr');
  fleetAdmin = await t.login('flotte@gamma.fr');
});
afterAll(() => t.close());

describe('drivers', () => {
  it('previews a cp1252 Excel-FR file: headers, suggested mapping, count, sample', async () => {
    const body = await previewed(user, 'driver', 'conducteurs.csv', fixture('conducteurs-excel-fr.csv'));
    expect(body).toMatchObject({
      headers: ['Nom', 'Prénom', 'Tél.', 'E-mail'],
      suggestedMapping: { lastName: 0, firstName: 1, phone: 2, email: 3 },
      rowCount: 6,
      format: 'csv',
      encoding: 'windows-1252',
      separator: ';',
    });
    expect((body as unknown as { sample: { line: number; cells: string[] }[] }).sample[0]).toEqual({ line: 2, cells: ['Lefèvre', 'Hélène', '06 12 34 56 78', 'helene.lefevre@transports-alpha.fr'] });
  });

  it('validates with French errors on Excel rows, commits the valid rows (upsert by e-mail), and the same file again changes nothing', async () => {
    const versionBefore = await registerVersion(orgA, 'drivers');
    const { importId, suggestedMapping } = await previewed(admin, 'driver', 'conducteurs.csv', fixture('conducteurs-excel-fr.csv'));
    const check = await validate(admin, importId, { mapping: suggestedMapping });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toMatchObject({
      mode: 'upsert',
      rowCount: 6,
      valid: 4,
      invalid: 2,
      counts: { created: 3, updated: 1, unchanged: 0, skipped: 2, exited: 0 },
      errors: [
        { line: 6, field: 'lastName', column: 'Nom', message: 'Nom : valeur obligatoire' },
        { line: 7, field: 'email', column: 'E-mail', message: 'Adresse e-mail invalide' },
        { line: 7, field: 'phone', column: 'Tél.', message: 'Numéro de téléphone invalide (ex. 06 12 34 56 78)' },
      ],
    });
    const done = await commit(admin, importId, { mapping: suggestedMapping });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ created: 3, updated: 1, unchanged: 0, skipped: 2, exited: 0, status: 'committed' });
    expect(await count(drivers, orgA)).toBe(4);
    const helene = await t.seed(async (tx) => (await tx.select().from(drivers).where(eq(drivers.email, 'helene.lefevre@transports-alpha.fr')))[0]!);
    expect(helene.phone).toBe('+33612345678');
    const versionAfter = await registerVersion(orgA, 'drivers');
    expect(versionAfter!.active).toBe(4);
    expect(versionAfter!.version).not.toBe(versionBefore!.version);

    // The same commit again: its result, nothing written.
    const again = await commit(admin, importId, { mapping: suggestedMapping });
    expect(again.json()).toMatchObject({ created: 3, updated: 1, status: 'committed' });
    // The same file as a new import: everything unchanged. The last mapping is suggested.
    const second = await previewed(admin, 'driver', 'conducteurs-bis.csv', fixture('conducteurs-excel-fr.csv'));
    expect(second.suggestedMapping).toEqual(suggestedMapping);
    const redo = await commit(admin, second.importId, { mapping: second.suggestedMapping });
    expect(redo.json()).toMatchObject({ created: 0, updated: 0, unchanged: 4, skipped: 2 });
    expect(await count(drivers, orgA)).toBe(4);
    expect((await registerVersion(orgA, 'drivers'))!.version).toBe(versionAfter!.version);

    // History and status.
    const history = await t.as(user, { method: 'GET', url: '/api/import' });
    expect(history.statusCode).toBe(200);
    expect(history.json().data[0]).toMatchObject({ importId: second.importId, entity: 'driver', fileName: 'conducteurs-bis.csv', status: 'committed', percent: 100 });
    expect((await status(user, importId)).json()).toMatchObject({ status: 'committed', counts: { created: 3 }, author: { name: expect.any(String) } });

    // Revert the first: the three created go, Hélène gets her phone back.
    const undone = await revert(admin, importId);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toEqual({ restored: 4, left: [] });
    expect(await count(drivers, orgA)).toBe(1);
    expect((await t.seed((tx) => tx.select().from(drivers).where(eq(drivers.organizationUuid, orgA))))[0]!.phone).toBe('+33600000000');
    expect((await revert(admin, importId)).statusCode).toBe(409);
    expect((await status(user, importId)).json()).toMatchObject({ status: 'reverted', revertibleUntil: null });
  });

  it('a revert leaves the rows edited since, and names them', async () => {
    const { importId, suggestedMapping } = await previewed(admin, 'driver', 'c.csv', fixture('conducteurs-tabulations.csv'));
    const done = await commit(admin, importId, { mapping: suggestedMapping });
    expect(done.json()).toMatchObject({ created: 1 });
    const [elise] = await t.seed((tx) => tx.select().from(drivers).where(eq(drivers.lastName, 'Garçon')));
    const edit = await t.as(admin, { method: 'PATCH', url: `/api/driver/${elise!.uuid}`, payload: { email: 'elise@alpha.fr' } });
    expect(edit.statusCode).toBe(200);
    const undone = await revert(admin, importId);
    expect(undone.json()).toEqual({ restored: 0, left: [{ entity: 'driver', uuid: elise!.uuid, label: 'Élise Garçon', reason: "modifié depuis l'import : laissé tel quel" }] });
    expect(await t.seed((tx) => tx.select().from(drivers).where(eq(drivers.uuid, elise!.uuid)))).toHaveLength(1);
  });

  it('refuses a mapping without a required field, in French, writing nothing', async () => {
    const { importId } = await previewed(admin, 'driver', 'c.csv', fixture('conducteurs-excel-fr.csv'));
    const response = await validate(admin, importId, { mapping: { lastName: 0, firstName: 1, phone: null } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: '« Téléphone » est obligatoire : choisissez sa colonne', details: [{ path: 'mapping.phone' }] });
    expect((await commit(admin, importId, { mapping: { lastName: 0, firstName: 1, phone: 7 } })).statusCode).toBe(400);
    expect((await status(admin, importId)).json().status).toBe('previewed');
  });

  it('a failure in the middle of a commit leaves nothing', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => `Nom${i};Prénom;06 12 34 ${String(Math.floor(i / 100)).padStart(2, '0')} ${String(i % 100).padStart(2, '0')}`);
    rows[1200] = 'BOUM;Prénom;06 99 99 99 99';
    const file = Buffer.from(`Nom;Prénom;Téléphone\r\n${rows.join('\r\n')}\r\n`);
    const { importId, suggestedMapping } = await previewed(admin, 'driver', 'gros.csv', file);
    const before = await count(drivers, orgA);
    // The database refuses one row of the second chunk of inserts.
    await asOwner(`CREATE FUNCTION boum() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.last_name = 'BOUM' THEN RAISE EXCEPTION 'boum'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER boum BEFORE INSERT ON drivers FOR EACH ROW EXECUTE FUNCTION boum();`);
    try {
      const response = await commit(admin, importId, { mapping: suggestedMapping });
      expect(response.statusCode).toBe(500);
    } finally {
      await asOwner('DROP TRIGGER boum ON drivers; DROP FUNCTION boum();');
    }
    expect(await count(drivers, orgA)).toBe(before);
    expect((await status(admin, importId)).json().status).toBe('previewed');
    // Once the cause is gone, the same import commits.
    expect((await commit(admin, importId, { mapping: suggestedMapping })).json()).toMatchObject({ created: 1500 });
    expect(await count(drivers, orgA)).toBe(before + 1500);
  });
});

describe('vehicles', () => {
  it('imports an Excel-FR file: plates normalised, categories by label, French dates; invalid rows skipped', async () => {
    const { importId, suggestedMapping } = await previewed(user, 'vehicule', 'flotte.csv', fixture('vehicules-excel-fr.csv'));
    expect(suggestedMapping).toMatchObject({ immatriculation: 0, brand: 1, model: 2, type: 3, circulationDate: 4, entryDate: 5 });
    const check = (await validate(user, importId, { mapping: suggestedMapping })).json();
    expect(check).toMatchObject({ valid: 3, invalid: 2, errors: [{ line: 5, field: 'circulationDate' }, { line: 6, field: 'brand', message: 'Marque : valeur obligatoire' }] });
    const done = await commit(user, importId, { mapping: suggestedMapping });
    expect(done.json()).toMatchObject({ created: 3, skipped: 2 });
    const stored = await t.seed((tx) => tx.select().from(vehicules).where(eq(vehicules.organizationUuid, orgA)).orderBy(vehicules.immatriculation));
    expect(stored.map((v) => [v.immatriculation, v.type, v.circulationDate, v.entryDate])).toEqual([
      ['AB123CD', 'VP', '2021-03-15', '2021-04-01'],
      ['EF456GH', 'VUL', '2019-11-02', '2019-11-05'],
      ['IJ789KL', 'VUL', '2020-06-30', '2020-07-01'],
    ]);
  });

  it('compare mode: new, missing and changed; commit applies exactly the selection, with one e-mail to the intermediary', async () => {
    const file = Buffer.from('Immat.;Marque;Modèle\r\nab-123-cd;Renault;Clio V\r\nEF 456 GH;Peugeot;208\r\nJK-321-LM;Dacia;Sandero\r\nNP-654-QR;Fiat;Panda\r\n');
    const { importId, suggestedMapping } = await previewed(fleetAdmin, 'vehicule', 'assureur.csv', file);
    const check = await validate(fleetAdmin, importId, { mapping: { immatriculation: 0, brand: 1, model: 2 }, mode: 'compare' });
    expect(check.statusCode, check.body).toBe(200);
    const { compare } = check.json();
    expect(compare.new.map((v: { immatriculation: string }) => v.immatriculation)).toEqual(['JK-321-LM', 'NP-654-QR']);
    expect(compare.missing).toEqual([expect.objectContaining({ immatriculation: 'XY-999-ZA', brand: 'Citroën' })]);
    // A changed vehicle says what it is once changed: its brand too, though the file left it as it was.
    expect(compare.changed).toEqual([
      expect.objectContaining({ immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Clio V', changes: [{ field: 'model', label: 'Modèle', old: 'Clio', new: 'Clio V' }] }),
    ]);
    const missingUuid = compare.missing[0].uuid;
    const mailsBefore = await t.seed((tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.organizationUuid, orgC)));

    // A selection naming a vehicle the comparison does not propose: refused, nothing written.
    expect((await commit(fleetAdmin, importId, { mapping: suggestedMapping, mode: 'compare', selection: { new: ['ZZ000ZZ'] } })).statusCode).toBe(409);

    const done = await commit(fleetAdmin, importId, {
      mapping: { immatriculation: 0, brand: 1, model: 2 },
      mode: 'compare',
      selection: { new: ['JK321LM'], changed: [], exits: [{ uuid: missingUuid, exitDate: '2025-06-30' }] },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ created: 1, updated: 0, unchanged: 1, skipped: 2, exited: 1 });
    const fleet = await t.seed((tx) => tx.select().from(vehicules).where(eq(vehicules.organizationUuid, orgC)).orderBy(vehicules.immatriculation));
    expect(fleet.map((v) => [v.immatriculation, v.model, v.exitDate])).toEqual([
      ['AB123CD', 'Clio', null],
      ['EF456GH', '208', null],
      ['JK321LM', 'Sandero', null],
      ['XY999ZA', 'C3', '2025-06-30'],
    ]);
    const mails = await t.seed((tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.organizationUuid, orgC)));
    expect(mails.length - mailsBefore.length).toBe(1);
    expect(mails.at(-1)!.recipient).toBe('production@courtier-gamma.fr');

    // Revert: the new one goes, the exit is undone, and the intermediary hears that the exit is cancelled.
    expect((await revert(fleetAdmin, importId)).json()).toEqual({ restored: 2, left: [] });
    const told = await t.seed((tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.organizationUuid, orgC)));
    expect(told.length - mails.length).toBe(1);
    expect(told.at(-1)).toMatchObject({ recipient: 'production@courtier-gamma.fr', subject: expect.stringMatching(/^Annulation de mouvements de flotte : 1 sortie \(/) });
    expect(told.at(-1)!.text).toContain('• XY-999-ZA — Citroën C3, VP (véhicule particulier) : sortie le 30 juin 2025 annulée');
    const after = await t.seed((tx) => tx.select().from(vehicules).where(eq(vehicules.organizationUuid, orgC)).orderBy(vehicules.immatriculation));
    expect(after.map((v) => [v.immatriculation, v.exitDate])).toEqual([['AB123CD', null], ['EF456GH', null], ['XY999ZA', null]]);
  });

  it('compare mode applies a changed vehicle when selected, and refuses an exit before the entry date', async () => {
    const file = Buffer.from('Immatriculation;Modèle\r\nAB-123-CD;Clio Estate\r\nEF-456-GH;208\r\n');
    const { importId } = await previewed(fleetAdmin, 'vehicule', 'assureur-2.csv', file);
    const mapping = { immatriculation: 0, model: 1 };
    const { compare } = (await validate(fleetAdmin, importId, { mapping, mode: 'compare' })).json();
    expect(compare.changed.map((v: { key: string }) => v.key)).toEqual(['AB123CD']);
    const xy = compare.missing.find((v: { immatriculation: string }) => v.immatriculation === 'XY-999-ZA');
    const early = await commit(fleetAdmin, importId, { mapping, mode: 'compare', selection: { changed: ['AB123CD'], exits: [{ uuid: xy.uuid, exitDate: '2019-01-01' }] } });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe("XY-999-ZA : la date de sortie précède la date d'entrée");
    const done = await commit(fleetAdmin, importId, { mapping, mode: 'compare', selection: { changed: ['AB123CD'] } });
    expect(done.json()).toMatchObject({ created: 0, updated: 1, unchanged: 1, exited: 0 });
    const [clio] = await t.seed((tx) => tx.select().from(vehicules).where(and(eq(vehicules.organizationUuid, orgC), eq(vehicules.immatriculation, 'AB123CD'))));
    expect(clio!.model).toBe('Clio Estate');
    expect((await revert(fleetAdmin, importId)).json()).toEqual({ restored: 1, left: [] });
  });

  it('reads an XLSX with French headers and formulas', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Parc');
    sheet.addRow(['Immatriculation', 'Marque', 'Modèle', 'Date d’entrée']);
    sheet.addRow(['GH-111-JK', 'Renault', 'Trafic', new Date(Date.UTC(2024, 2, 1))]);
    sheet.addRow([{ formula: 'UPPER("gh-222-jk")', result: 'GH-222-JK' }, 'Iveco', 'Daily', 45500]);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const { importId, suggestedMapping } = await previewed(fleetAdmin, 'vehicule', 'parc.xlsx', content);
    expect(suggestedMapping).toMatchObject({ immatriculation: 0, brand: 1, model: 2, entryDate: 3 });
    expect((await commit(fleetAdmin, importId, { mapping: suggestedMapping })).json()).toMatchObject({ created: 2 });
    const rows = await t.seed((tx) => tx.select().from(vehicules).where(and(eq(vehicules.organizationUuid, orgC), sql`${vehicules.immatriculation} like 'GH%'`)).orderBy(vehicules.immatriculation));
    expect(rows.map((v) => [v.immatriculation, v.entryDate])).toEqual([['GH111JK', '2024-03-01'], ['GH222JK', '2024-07-27']]);
  });
});

describe('claims', () => {
  it('imports a messy claims statement: amounts as text, links by plate and name, upsert by claim number', async () => {
    const { importId, suggestedMapping } = await previewed(admin, 'sinister', 'bordereau.csv', fixture('sinistres-excel-fr.csv'));
    const check = (await validate(admin, importId, { mapping: suggestedMapping })).json();
    expect(check).toMatchObject({ rowCount: 4, valid: 2, invalid: 2 });
    expect(check.errors.map((e: { line: number }) => e.line)).toEqual([4, 5]);
    // Row 4 names nobody known, but its negative amount refuses it first: no warning left.
    expect(check.warnings).toEqual([]);
    const done = await commit(admin, importId, { mapping: suggestedMapping });
    expect(done.json()).toMatchObject({ created: 2, skipped: 2 });
    const claims = await t.seed((tx) => tx.select().from(sinisters).where(eq(sinisters.organizationUuid, orgA)).orderBy(sinisters.sinisterIntermediateRef));
    expect(claims.map((c) => [c.sinisterIntermediateRef, c.sinisterDate, c.paidCents, c.reserveCents, c.responsibilityRate, c.immatriculation, c.vehiculeUuid !== null])).toEqual([
      ['2025-0001', '2025-01-12', 100000, 23456, 50, 'AB123CD', true],
      ['2025-0002', '2025-02-03', 0, 250000, 0, 'EF456GH', true],
    ]);
    expect(claims.map((c) => c.driverUuid !== null)).toEqual([true, false]);
    expect(claims[0]!.description).toBe('Choc arrière; feu rouge\r\nau carrefour');
    // Again: unchanged.
    const second = await previewed(admin, 'sinister', 'bordereau.csv', fixture('sinistres-excel-fr.csv'));
    expect((await commit(admin, second.importId, { mapping: second.suggestedMapping })).json()).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
  });
});

describe('access and bad input', () => {
  it("another organization's import is not found; no organization is 403; no token is 401", async () => {
    const { importId, suggestedMapping } = await previewed(admin, 'driver', 'c.csv', fixture('conducteurs-tabulations.csv'));
    for (const response of [
      await validate(outsider, importId, { mapping: suggestedMapping }),
      await commit(outsider, importId, { mapping: suggestedMapping }),
      await revert(outsider, importId),
      await status(outsider, importId),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Import introuvable');
    }
    expect((await t.as(outsider, { method: 'GET', url: '/api/import' })).json().data).toEqual([]);
    expect((await upload(orphan, 'driver', 'c.csv', fixture('conducteurs-tabulations.csv'))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/import' })).statusCode).toBe(401);
    expect((await status(admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await status(admin, 'pas-un-uuid')).statusCode).toBe(400);
  });

  it('refuses bad files in French and keeps nothing', async () => {
    const before = await t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(imports))[0]!.n);
    const cases: [string, Buffer, number, string][] = [
      ['vide.csv', fixture('vide.csv'), 400, 'Le fichier est vide.'],
      ['photo.csv', fixture('binaire-renomme.csv'), 400, "Ce fichier n'est pas un tableur lisible : enregistrez-le au format CSV ou Excel (.xlsx)."],
      ['ancien.xls', fixture('ancien-excel.xls'), 400, "Le format Excel 97-2003 (.xls) n'est pas pris en charge : enregistrez le fichier au format Excel (.xlsx) ou CSV."],
      ['gros.csv', Buffer.alloc(20 * 1024 * 1024 + 10, 'a'), 413, 'Le fichier dépasse la taille maximale autorisée (20 Mo).'],
    ];
    for (const [name, content, code, message] of cases) {
      const response = await upload(admin, 'driver', name, content);
      expect(response.statusCode, name).toBe(code);
      expect(response.json().message).toBe(message);
    }
    expect((await upload(admin, 'camion', 'c.csv', fixture('conducteurs-tabulations.csv'))).statusCode).toBe(400);
    const noFile = await t.as(admin, { method: 'POST', url: '/api/import/driver/preview', payload: { file: 'x' } });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe('Joignez un fichier CSV ou Excel (.xlsx) dans le champ « file ».');
    const wrongField = await t.as(admin, { method: 'POST', url: '/api/import/driver/preview', ...multipartFile('c.csv', fixture('conducteurs-tabulations.csv'), 'document') });
    expect(wrongField.statusCode).toBe(400);
    expect(await t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(imports))[0]!.n)).toBe(before);
  });

  it('names a cell holding a NUL far in the file as an invalid row, and commits the others (never a 5xx)', async () => {
    // Past the first 8 KB that the binary check reads.
    const lines = ['Nom;Prénom;Téléphone'];
    for (let i = 0; i < 400; i++) lines.push(`Nul${i};Jeanne;06 12 34 ${String(10 + (i % 90)).padStart(2, '0')} ${String(i % 100).padStart(2, '0')}`);
    lines.push('Nu\u0000l;Paul;06 99 99 99 99');
    const file = Buffer.from(lines.join('\r\n'), 'utf8');
    expect(file.length).toBeGreaterThan(8192);
    const { importId, suggestedMapping } = await previewed(admin, 'driver', 'nul.csv', file);
    const checked = await validate(admin, importId, { mapping: suggestedMapping });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({ invalid: 1, errors: [{ line: 402, field: 'lastName', message: 'Nom : caractère invalide (nul) dans la cellule' }] });
    const done = await commit(admin, importId, { mapping: suggestedMapping });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ skipped: 1 });
  });

  it('refuses bad bodies and modes in French, never a 5xx', async () => {
    const { importId } = await previewed(admin, 'driver', 'c.csv', fixture('conducteurs-tabulations.csv'));
    for (const payload of [{}, { mapping: 'x' }, { mapping: { lastName: -1 } }, { mapping: { lastName: 0 }, mode: 'tout' }, { mapping: { lastName: 0, firstName: 1, phone: 2 }, mode: 'compare' }]) {
      const response = await validate(admin, importId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
