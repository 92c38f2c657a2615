import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imports } from '../../db/schema/imports.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { multipartFile } from '../../../test/multipart.js';

// The errors of a check as a file, the choice of an XLSX's sheet, and the history's way back as
// the server decides it (issue 13's screens).

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/import');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

let t: TestContext;
let orgA: string;
let member: string;
let colleague: string;
let admin: string;
let outsider: string;

const upload = (token: string, entity: string, fileName: string, content: Buffer, query = '') =>
  t.as(token, { method: 'POST', url: `/api/import/${entity}/preview${query}`, ...multipartFile(fileName, content) });
const validate = (token: string, id: string, payload: object) => t.as(token, { method: 'POST', url: `/api/import/${id}/validate`, payload });
const errors = (token: string, id: string) => t.as(token, { method: 'GET', url: `/api/import/${id}/errors` });

type Preview = { importId: string; suggestedMapping: Record<string, number | null>; headers: string[]; rowCount: number; sheets: string[]; sheet: string | null };

async function previewed(token: string, entity: string, fileName: string, content: Buffer, query = '') {
  const response = await upload(token, entity, fileName, content, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Preview>();
}

/** A workbook of two sheets, as an insurer sends it: a cover sheet first, the fleet second. */
async function twoSheets() {
  const workbook = new ExcelJS.Workbook();
  const cover = workbook.addWorksheet('Synthèse');
  cover.addRow(['Assureur', 'Contrat']);
  cover.addRow(['Mutuelle Exemple', 'FL-2026']);
  const fleet = workbook.addWorksheet('Parc 2026');
  fleet.addRow(['Immatriculation', 'Marque', 'Modèle']);
  fleet.addRow(['KL-111-MN', 'Renault', 'Master']);
  fleet.addRow(['KL-222-MN', 'Iveco', 'Daily']);
  fleet.addRow(['KL-333-MN', 'Ford', 'Transit']);
  workbook.addWorksheet('Vide');
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

beforeAll(async () => {
  t = await createTestApp();
  ({ orgA } = await t.seed(async (tx) => {
    const a = await createOrganization(tx, { title: 'Transports Alpha' });
    const b = await createOrganization(tx, { title: 'Bêta BTP' });
    const plain = await createUser(tx, { email: 'membre@alpha.fr' });
    const other = await createUser(tx, { email: 'collegue@alpha.fr' });
    const boss = await createUser(tx, { email: 'admin@alpha.fr' });
    await linkUser(tx, a.uuid, other.uuid);
    await linkUser(tx, a.uuid, boss.uuid, 'ADMIN');
    const foreign = await createUser(tx, { email: 'admin@beta.fr' });
    await linkUser(tx, a.uuid, plain.uuid);
    await linkUser(tx, b.uuid, foreign.uuid, 'ADMIN');
    return { orgA: a.uuid };
  }));
  member = await t.login('membre@alpha.fr');
  colleague = await t.login('collegue@alpha.fr');
  admin = await t.login('admin@alpha.fr');
  outsider = await t.login('admin@beta.fr');
});
afterAll(() => t.close());

describe("the check's errors as a file", () => {
  it('downloads every error of the last validation as a CSV in the exports’ style: BOM, « ; », CRLF, Excel row, column, message', async () => {
    const { importId, suggestedMapping } = await previewed(member, 'driver', 'conducteurs.csv', fixture('conducteurs-excel-fr.csv'));
    // Before any validation the errors depend on columns not chosen yet.
    const early = await errors(member, importId);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe("Vérifiez d'abord le fichier : ses erreurs dépendent des colonnes choisies");

    expect((await validate(member, importId, { mapping: suggestedMapping })).json()).toMatchObject({ invalid: 2, errorCount: 3 });
    const file = await errors(member, importId);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="erreurs-conducteurs-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(file.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(file.rawPayload.subarray(3).toString('utf8')).toBe(
      [
        'Ligne;Colonne;Erreur',
        '6;Nom;Nom : valeur obligatoire',
        '7;E-mail;Adresse e-mail invalide',
        '7;Tél.;Numéro de téléphone invalide (ex. 06 12 34 56 78)',
        '',
      ].join('\r\n'),
    );

    // Another validation with other columns: the file follows it.
    const phoneUnlinked = { ...suggestedMapping, email: null };
    await validate(member, importId, { mapping: phoneUnlinked });
    const again = (await errors(member, importId)).rawPayload.subarray(3).toString('utf8');
    expect(again.split('\r\n')).toEqual(['Ligne;Colonne;Erreur', '6;Nom;Nom : valeur obligatoire', '7;Tél.;Numéro de téléphone invalide (ex. 06 12 34 56 78)', '']);
  });

  it('holds more than the screen shows (all of them, sorted by row)', async () => {
    const lines = ['Nom;Prénom;Tél.'];
    for (let i = 0; i < 1_200; i++) lines.push(`Nom${i};;06 12 34 56 78`);
    const { importId, suggestedMapping } = await previewed(member, 'driver', 'gros.csv', Buffer.from(lines.join('\r\n')));
    const check = (await validate(member, importId, { mapping: suggestedMapping })).json<{ errors: unknown[]; errorCount: number }>();
    expect(check.errorCount).toBe(1_200);
    expect(check.errors.length).toBeLessThan(1_200);
    const rows = (await errors(member, importId)).rawPayload.subarray(3).toString('utf8').split('\r\n');
    expect(rows).toHaveLength(1 + 1_200 + 1);
    expect(rows[1]).toBe('2;Prénom;Prénom : valeur obligatoire');
    expect(rows[1_200]).toBe('1201;Prénom;Prénom : valeur obligatoire');
  });

  it("another organization's import is not found; no token is 401", async () => {
    const { importId, suggestedMapping } = await previewed(member, 'driver', 'c.csv', fixture('conducteurs-excel-fr.csv'));
    await validate(member, importId, { mapping: suggestedMapping });
    const foreign = await errors(outsider, importId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Import introuvable');
    expect((await t.app.inject({ method: 'GET', url: `/api/import/${importId}/errors` })).statusCode).toBe(401);
    expect((await errors(member, 'pas-un-uuid')).statusCode).toBe(400);
  });
});

describe("an XLSX's sheets", () => {
  it('names the sheets; reads the first with data, or the one chosen, and validates and commits that one', async () => {
    const content = await twoSheets();
    const first = await previewed(member, 'vehicule', 'assureur.xlsx', content);
    expect(first).toMatchObject({ sheets: ['Synthèse', 'Parc 2026', 'Vide'], sheet: 'Synthèse', headers: ['Assureur', 'Contrat'], rowCount: 1 });

    const chosen = await previewed(member, 'vehicule', 'assureur.xlsx', content, `?sheet=${encodeURIComponent('Parc 2026')}`);
    expect(chosen).toMatchObject({ sheets: ['Synthèse', 'Parc 2026', 'Vide'], sheet: 'Parc 2026', headers: ['Immatriculation', 'Marque', 'Modèle'], rowCount: 3 });
    expect(chosen.suggestedMapping).toMatchObject({ immatriculation: 0, brand: 1, model: 2 });
    // The validation and the commit read the same sheet again (the import keeps it).
    expect((await validate(member, chosen.importId, { mapping: chosen.suggestedMapping })).json()).toMatchObject({ valid: 3, invalid: 0 });
    const done = await t.as(member, { method: 'POST', url: `/api/import/${chosen.importId}/commit`, payload: { mapping: chosen.suggestedMapping } });
    expect(done.json()).toMatchObject({ created: 3, status: 'committed' });
    const plates = await t.seed((tx) => tx.select({ plate: vehicules.immatriculation }).from(vehicules).where(eq(vehicules.organizationUuid, orgA)).orderBy(vehicules.immatriculation));
    expect(plates.map((p) => p.plate)).toEqual(['KL111MN', 'KL222MN', 'KL333MN']);
  });

  it('refuses an unknown or empty sheet in French and keeps nothing; a CSV has no sheets', async () => {
    const content = await twoSheets();
    const before = await t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(imports))[0]!.n);
    const unknown = await upload(member, 'vehicule', 'assureur.xlsx', content, '?sheet=Flotte');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe("La feuille « Flotte » n'existe pas dans ce classeur.");
    const empty = await upload(member, 'vehicule', 'assureur.xlsx', content, '?sheet=Vide');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('La feuille « Vide » ne contient aucune donnée.');
    expect((await upload(member, 'vehicule', 'assureur.xlsx', content, `?sheet=${'x'.repeat(101)}`)).statusCode).toBe(400);
    expect(await t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(imports))[0]!.n)).toBe(before);
    expect(await previewed(member, 'vehicule', 'v.csv', fixture('vehicules-excel-fr.csv'))).toMatchObject({ sheets: [], sheet: null });
  });
});

describe('the history', () => {
  it('offers the way back for 24 h after the commit, by the server’s clock', async () => {
    const { importId, suggestedMapping } = await previewed(member, 'driver', 'c.csv', fixture('conducteurs-excel-fr.csv'));
    await t.as(member, { method: 'POST', url: `/api/import/${importId}/commit`, payload: { mapping: suggestedMapping } });
    const listed = async () => (await t.as(member, { method: 'GET', url: '/api/import' })).json<{ data: { importId: string; committedAt: string; revertibleUntil: string | null }[] }>().data.find((i) => i.importId === importId)!;
    const fresh = await listed();
    expect(new Date(fresh.revertibleUntil!).getTime() - new Date(fresh.committedAt).getTime()).toBe(24 * 60 * 60 * 1000);
    // Committed 25 hours ago: no longer offered, and refused.
    await t.seed((tx) => tx.update(imports).set({ committedAt: new Date(Date.now() - 25 * 60 * 60 * 1000) }).where(eq(imports.uuid, importId)));
    expect((await listed()).revertibleUntil).toBeNull();
    const late = await t.as(member, { method: 'POST', url: `/api/import/${importId}/revert` });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("L'annulation n'est possible que dans les 24 heures qui suivent l'import");
  });

  it('is undone by its author or an administrator; another member gets a 403 and nothing changes', async () => {
    const lines = ['Nom;Prénom;Tél.', 'Roux;Anaïs;06 11 22 33 44'];
    const ours = async () => {
      const { importId, suggestedMapping } = await previewed(member, 'driver', 'un.csv', Buffer.from(lines.join('\r\n')));
      expect((await t.as(member, { method: 'POST', url: `/api/import/${importId}/commit`, payload: { mapping: suggestedMapping } })).json()).toMatchObject({ status: 'committed' });
      return importId;
    };
    const first = await ours();
    const refused = await t.as(colleague, { method: 'POST', url: `/api/import/${first}/revert` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Seuls l'auteur de l'import et les administrateurs peuvent l'annuler");
    expect((await t.as(colleague, { method: 'GET', url: `/api/import/${first}` })).json()).toMatchObject({ status: 'committed', revertibleUntil: expect.any(String) });
    expect((await t.as(admin, { method: 'POST', url: `/api/import/${first}/revert` })).json()).toEqual({ restored: 1, left: [] });
    const second = await ours();
    expect((await t.as(member, { method: 'POST', url: `/api/import/${second}/revert` })).json()).toEqual({ restored: 1, left: [] });
  });
});
