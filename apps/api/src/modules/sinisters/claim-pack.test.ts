import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser } from '../../seed/factories.js';
import { pdfText, spaced } from '../../../test/pdf-text.js';
import { multipartFiles } from '../../../test/multipart.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { unzip } from '../../../test/zip.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');



let t: TestContext;
let dataDir: string;
let member: string;
let outsider: string;
let claim: string;
let bare: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-pack-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  ({ claim, bare } = await t.seed(async (tx) => {
    const a = await createOrganization(tx, { title: 'Transports Alpha' });
    const b = await createOrganization(tx, { title: 'Bêta BTP' });
    const plain = await createUser(tx, { email: 'membre@alpha.fr' });
    const foreign = await createUser(tx, { email: 'admin@beta.fr' });
    await linkUser(tx, a.uuid, plain.uuid);
    await linkUser(tx, b.uuid, foreign.uuid, 'ADMIN');
    const [d] = await createDrivers(tx, a.uuid, [{ firstName: 'Hélène', lastName: 'Lefèvre' }]);
    const [v] = await createVehicules(tx, a.uuid, [{ immatriculation: 'AB123CD', brand: 'Renault', model: 'Clio' }]);
    const [s1, s2] = await createSinisters(tx, a.uuid, [
      { sinisterIntermediateRef: 'REF/2026/12', sinisterDate: '2026-03-14', city: 'Orléans', vehiculeUuid: v!.uuid, driverUuid: d!.uuid, totalCostCents: 123456, description: 'Choc arrière à un feu rouge.' },
      { sinisterIntermediateRef: null, sinisterDate: '2026-04-02' },
    ]);
    return { claim: s1!.uuid, bare: s2!.uuid };
  }));
  member = await t.login('membre@alpha.fr');
  outsider = await t.login('admin@beta.fr');
  const attached = await t.as(member, {
    method: 'POST',
    url: `/api/sinister/${claim}/documents`,
    ...multipartFiles([
      { name: 'constat amiable.pdf', content: PDF },
      { name: 'photo été.png', content: PNG },
    ]),
  });
  expect(attached.statusCode, attached.body).toBe(201);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const pack = (token: string, uuid: string) => t.as(token, { method: 'GET', url: `/api/sinister/${uuid}/pack` });

describe('the claim pack (issue 14)', () => {
  it('streams one ZIP named for the insurer, with the claim’s summary in PDF and every attachment', async () => {
    const response = await pack(member, claim);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Sinistre-REF-2026-12-2026-03-14.zip"; filename*=UTF-8''Sinistre-REF-2026-12-2026-03-14.zip`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()]).toEqual(['Résumé du sinistre.pdf', 'Pièces jointes/constat amiable.pdf', 'Pièces jointes/photo été.png']);
    expect(entries.get('Pièces jointes/constat amiable.pdf')).toEqual(PDF);
    expect(entries.get('Pièces jointes/photo été.png')).toEqual(PNG);

    const summary = await pdfText(entries.get('Résumé du sinistre.pdf')!);
    const text = spaced(summary.text);
    const expected = ['Sinistre REF/2026/12', 'Transports Alpha', '14/03/2026', 'Orléans', 'AB-123-CD', 'Renault Clio', 'Hélène Lefèvre', 'Choc arrière à un feu rouge.', 'constat amiable.pdf', 'photo été.png'];
    for (const phrase of expected) expect(text, phrase).toContain(phrase);
    expect(text).toMatch(/1\s234,56\s€/);
  });

  it('packs a claim without reference or files under its date, with its summary alone', async () => {
    const response = await pack(member, bare);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toContain('filename="Sinistre-2026-04-02.zip"');
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()]).toEqual(['Résumé du sinistre.pdf']);
    const text = spaced((await pdfText(entries.get('Résumé du sinistre.pdf')!)).text);
    expect(text).toContain('Sinistre du 02/04/2026');
    expect(text).toContain('Aucune pièce jointe.');
  });

  it('leaves out a file taken off the claim', async () => {
    const files = (await t.as(member, { method: 'GET', url: `/api/sinister/${bare}/documents` })).json<{ data: unknown[] }>().data;
    expect(files).toEqual([]);
    const added = await t.as(member, { method: 'POST', url: `/api/sinister/${bare}/documents`, ...multipartFiles([{ name: 'devis.pdf', content: PDF }]) });
    const [devis] = added.json<{ data: { uuid: string }[] }>().data;
    expect((await t.as(member, { method: 'DELETE', url: `/api/sinister/${bare}/documents/${devis!.uuid}` })).statusCode).toBe(204);
    expect([...(await unzip((await pack(member, bare)).rawPayload)).keys()]).toEqual(['Résumé du sinistre.pdf']);
  });

  it('gives each entry its own name when two attached files share one in different folders of the GED', async () => {
    const upload = () => t.as(member, { method: 'POST', url: `/api/sinister/${bare}/documents`, ...multipartFiles([{ name: 'plan.pdf', content: PDF }]) });
    const [moved] = (await upload()).json<{ data: { uuid: string }[] }>().data;
    expect((await t.as(member, { method: 'PATCH', url: `/api/document/${moved!.uuid}`, payload: { parent: null } })).statusCode).toBe(200);
    expect((await upload()).json<{ data: { media: { name: string } }[] }>().data[0]!.media.name).toBe('plan.pdf');
    expect([...(await unzip((await pack(member, bare)).rawPayload)).keys()]).toEqual(['Résumé du sinistre.pdf', 'Pièces jointes/plan.pdf', 'Pièces jointes/plan (2).pdf']);
  });

  it('answers 404 for another organization’s claim or an unknown one, 400 for a malformed uuid, 401 without a session', async () => {
    const foreign = await pack(outsider, claim);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ message: string }>().message).toBe('Sinistre introuvable');
    expect((await pack(member, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await pack(member, 'pas-un-uuid')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/sinister/${claim}/pack` })).statusCode).toBe(401);
  });
});
