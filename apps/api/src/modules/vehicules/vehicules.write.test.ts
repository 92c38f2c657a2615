import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { vehicules } from '../../db/schema/vehicules.js';
import { openVehiculeFleets, vehiculeHelpers } from '../../../test/fixtures/vehicules.js';
import type { TestContext } from '../../../test/test-app.js';

// Creating, completing and editing vehicles in Gamma (every test creates the vehicles it changes),
// and bulk category changes in Delta, where Bêta's admin checks that only its own organization moves.
let t: TestContext;
let orgGamma: { uuid: string };
let foreign: { active: { uuid: string }; archived: { uuid: string }; draft: { uuid: string } };
let delta: Record<'kangoo' | 'master' | 'ducato' | 'clio' | 'yaris' | 'draft', { uuid: string }>;
let userC: string;
let userD: string;
let outsider: string;
let orphan: string;
const { get, stored, countAll, nextPlate, valid, createInGamma } = vehiculeHelpers(
  () => t,
  () => userC,
);

beforeAll(async () => {
  const fleets = await openVehiculeFleets(['userC', 'userD', 'outsider', 'orphan']);
  ({ t, orgGamma, foreign, delta } = fleets);
  ({ userC, userD, outsider, orphan } = fleets.tokens);
});
afterAll(() => t.close());

describe('POST /api/vehicule', () => {
  it('creates a vehicle with its plate normalised and the counts updated', async () => {
    const before = (await get(userC)).json();
    const response = await t.as(userC, {
      method: 'POST',
      url: '/api/vehicule',
      payload: { brand: ' Peugeot ', model: 'Partner', type: 'VUL', immatriculation: 'gc 900 aa', circulationDate: '2022-01-10', entryDate: '2022-02-01' },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      brand: 'Peugeot',
      model: 'Partner',
      type: 'VUL',
      immatriculation: 'GC900AA',
      immatriculationWarning: null,
      circulationDate: '2022-01-10',
      entryDate: '2022-02-01',
      exitDate: null,
      documents: [],
      isArchived: false,
    });
    expect(await stored(body.uuid)).toMatchObject({ organizationUuid: orgGamma.uuid, immatriculation: 'GC900AA' });
    expect((await t.as(userC, { method: 'GET', url: `/api/vehicule/${body.uuid}` })).json()).toEqual(body);
    const after = (await get(userC)).json();
    expect(after.nbInActivity).toBe(before.nbInActivity + 1);
    expect(after.total).toBe(before.total + 1);
  });

  it('accepts the date boundaries: entry on the day of first registration, exit on the day of entry', async () => {
    const body = await createInGamma({ circulationDate: '2023-05-02', entryDate: '2023-05-02', exitDate: '2023-05-02' });
    expect(body).toMatchObject({ circulationDate: '2023-05-02', entryDate: '2023-05-02', exitDate: '2023-05-02' });
  });

  it('refuses a plate already active in the organization, in any spelling; another organization may hold it', async () => {
    const { immatriculation } = await createInGamma({ immatriculation: 'GC-901-AA' });
    expect(immatriculation).toBe('GC901AA');
    const before = await countAll();
    for (const spelling of ['GC-901-AA', 'gc901aa', 'Gc 901.aa']) {
      const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', payload: valid({ immatriculation: spelling }) });
      expect(response.statusCode, spelling).toBe(409);
      expect(response.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: 'Le véhicule GC-901-AA existe déjà dans votre flotte',
        details: [{ path: 'immatriculation', message: 'Le véhicule GC-901-AA existe déjà dans votre flotte' }],
      });
    }
    expect(await countAll()).toBe(before);
    // AB-123-CD is Alpha's and Bêta's: Gamma may have it too.
    expect((await createInGamma({ immatriculation: 'AB-123-CD' })).immatriculation).toBe('AB123CD');
  });

  it('names a FNI plate the way it is written (123 ABC 45) in the conflict', async () => {
    await createInGamma({ immatriculation: '4567 XY 69' });
    const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', payload: valid({ immatriculation: '4567xy69' }) });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Le véhicule 4567 XY 69 existe déjà dans votre flotte');
  });

  it('lets only one of several simultaneous creations of one plate through, the others get the same 409', async () => {
    const payload = valid({ immatriculation: 'GC-902-AA' });
    const responses = await Promise.all(Array.from({ length: 4 }, () => t.as(userC, { method: 'POST', url: '/api/vehicule', payload })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json().message).toBe('Le véhicule GC-902-AA existe déjà dans votre flotte');
    }
    const count = await t.seed(async (tx) => (await tx.select().from(vehicules).where(eq(vehicules.immatriculation, 'GC902AA'))).length);
    expect(count).toBe(1);
  });

  it.each([
    ['B-MW 1234', 'BMW1234', 'Format non français ou inhabituel : vérifiez l’immatriculation'],
    ['ww-123-ab', 'WW123AB', 'Immatriculation temporaire (WW)'],
    ['W-123-AB', 'W123AB', 'Plaque W garage (professionnel de l’automobile)'],
    ['AB-000-CD', 'AB000CD', 'Immatriculation inhabituelle : vérifiez-la (SS et 000 ne sont jamais attribués)'],
    // A letter O where a digit is expected is kept as typed, never "corrected" into 0.
    ['AB-12O-CD', 'AB12OCD', 'Format non français ou inhabituel : vérifiez l’immatriculation'],
    ['123 abc 45', '123ABC45', null],
  ])('accepts the plate %j as %j with the warning %j', async (typed, normalised, warning) => {
    const body = await createInGamma({ immatriculation: typed });
    expect(body).toMatchObject({ immatriculation: normalised, immatriculationWarning: warning });
    const listed = (await get(userC, `?search=${encodeURIComponent(typed)}`)).json();
    expect(listed.data).toContainEqual(expect.objectContaining({ uuid: body.uuid, immatriculationWarning: warning }));
  });

  it.each([
    [{ model: '3008', type: 'VP', immatriculation: 'GC-950-AA' }, 'brand', 'La marque est obligatoire'],
    [{ brand: '  ', model: '3008', type: 'VP', immatriculation: 'GC-950-AA' }, 'brand', 'La marque est obligatoire'],
    [{ brand: 'Peugeot', type: 'VP', immatriculation: 'GC-950-AA' }, 'model', 'Le modèle est obligatoire'],
    [{ brand: 'Peugeot', model: '3008', type: 'XX', immatriculation: 'GC-950-AA' }, 'type', 'Catégorie de véhicule inconnue'],
    [{ brand: 'Peugeot', model: '3008', immatriculation: 'GC-950-AA' }, 'type', 'La catégorie est obligatoire'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP' }, 'immatriculation', "L'immatriculation est obligatoire"],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: ' - . ' }, 'immatriculation', "L'immatriculation est obligatoire"],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'AB/123/CD' }, 'immatriculation', 'que des lettres et des chiffres'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'A'.repeat(21) }, 'immatriculation', '20 caractères maximum'],
    [{ brand: 'B'.repeat(81), model: '3008', type: 'VP', immatriculation: 'GC-950-AA' }, 'brand', '80 caractères maximum'],
    [
      { brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', entryDate: '2024-02-01', exitDate: '2024-01-31' },
      'exitDate',
      "La date de sortie doit être postérieure ou égale à la date d'entrée",
    ],
    [
      { brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', circulationDate: '2024-03-01', entryDate: '2024-02-01' },
      'entryDate',
      "La date d'entrée dans la flotte ne peut précéder la mise en circulation",
    ],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', entryDate: '2024-02-30' }, 'entryDate', 'Date invalide'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', circulationDate: '01/02/2024' }, 'circulationDate', 'Date invalide'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', organizationUuid: '00000000-0000-4000-8000-000000000000' }, '', 'Clé non reconnue'],
    [{ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', archivedAt: '2024-01-01T00:00:00Z' }, '', 'Clé non reconnue'],
  ])('refuses %j with a French 400 on %s, writes nothing', async (payload, path, message) => {
    const before = await countAll();
    const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Données invalides/);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await countAll()).toBe(before);
  });

  it('refuses a body that is not JSON with a 400, never a 5xx', async () => {
    const response = await t.as(userC, { method: 'POST', url: '/api/vehicule', headers: { 'content-type': 'application/json' }, payload: '{"brand":' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Le corps de la requête n’est pas un JSON valide.');
  });
});

describe('drafts: POST /api/vehicule/create-empty, completed with PATCH', () => {
  const createEmpty = (token = userC) => t.as(token, { method: 'POST', url: '/api/vehicule/create-empty' });

  it('creates an empty vehicle that stays out of the lists and the counts', async () => {
    const before = (await get(userC, '?withArchived=true')).json();
    const response = await createEmpty();
    expect(response.statusCode).toBe(201);
    const draft = response.json();
    expect(draft).toEqual({
      uuid: expect.any(String),
      brand: null,
      model: null,
      type: null,
      circulationDate: null,
      entryDate: null,
      exitDate: null,
      immatriculation: null,
      immatriculationWarning: null,
      documents: [],
      isArchived: false,
      archivedAt: null,
      createdAt: expect.any(String),
    });
    expect(await stored(draft.uuid)).toMatchObject({ organizationUuid: orgGamma.uuid, immatriculation: null });
    expect((await t.as(userC, { method: 'GET', url: `/api/vehicule/${draft.uuid}` })).json()).toEqual(draft);
    const after = (await get(userC, '?withArchived=true&limit=1000')).json();
    expect(after).toMatchObject({ total: before.total, nbInActivity: before.nbInActivity, nbOfArchived: before.nbOfArchived });
    expect(after.data.map((v: { uuid: string }) => v.uuid)).not.toContain(draft.uuid);
    expect((await get(userC, '?types=VP,VUL,PL,AUTRE&start=2000-01-01&limit=1000')).json().data.map((v: { uuid: string }) => v.uuid)).not.toContain(draft.uuid);
  });

  it('completes a draft only with brand, model, category and plate, then lists and counts it', async () => {
    const draft = (await createEmpty()).json();
    const before = (await get(userC)).json();
    const partial = await t.as(userC, { method: 'PATCH', url: `/api/vehicule/${draft.uuid}`, payload: { brand: 'Renault' } });
    expect(partial.statusCode).toBe(400);
    expect(partial.json()).toMatchObject({ message: 'Données invalides (model) : Le modèle est obligatoire' });
    expect(partial.json().details).toEqual([
      { path: 'model', message: 'Le modèle est obligatoire' },
      { path: 'type', message: 'La catégorie est obligatoire' },
      { path: 'immatriculation', message: "L'immatriculation est obligatoire" },
    ]);
    const empty = await t.as(userC, { method: 'PATCH', url: `/api/vehicule/${draft.uuid}`, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.map((d: { path: string }) => d.path)).toEqual(['brand', 'model', 'type', 'immatriculation']);
    expect(empty.json().details[0]).toEqual({ path: 'brand', message: 'La marque est obligatoire' });
    const dashes = await t.as(userC, { method: 'PATCH', url: `/api/vehicule/${draft.uuid}`, payload: { brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: '--' } });
    expect(dashes.json().details).toEqual([{ path: 'immatriculation', message: "L'immatriculation est obligatoire" }]);
    expect(await stored(draft.uuid)).toMatchObject({ brand: null, immatriculation: null });

    const plate = nextPlate();
    const done = await t.as(userC, {
      method: 'PATCH',
      url: `/api/vehicule/${draft.uuid}`,
      payload: { brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: plate.toLowerCase(), entryDate: '2024-09-01' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ uuid: draft.uuid, brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: plate.replaceAll('-', ''), entryDate: '2024-09-01' });
    const after = (await get(userC, `?search=${plate}`)).json();
    expect(after.data.map((v: { uuid: string }) => v.uuid)).toEqual([draft.uuid]);
    expect(after.nbInActivity).toBe(before.nbInActivity + 1);
  });

  it('checks the date rules when completing a draft', async () => {
    const draft = (await createEmpty()).json();
    const response = await t.as(userC, {
      method: 'PATCH',
      url: `/api/vehicule/${draft.uuid}`,
      payload: { brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: nextPlate(), circulationDate: '2024-05-01' },
    });
    expect(response.statusCode).toBe(200);
    const late = await t.as(userC, { method: 'PATCH', url: `/api/vehicule/${draft.uuid}`, payload: { entryDate: '2024-04-30' } });
    expect(late.statusCode).toBe(400);
    expect(late.json().details).toEqual([{ path: 'entryDate', message: "La date d'entrée dans la flotte ne peut précéder la mise en circulation" }]);
  });

  it('refuses to complete a draft with a plate already in the fleet', async () => {
    const existing = await createInGamma();
    const draft = (await createEmpty()).json();
    const response = await t.as(userC, {
      method: 'PATCH',
      url: `/api/vehicule/${draft.uuid}`,
      payload: { brand: 'Renault', model: 'Zoé', type: 'VP', immatriculation: existing.immatriculation.toLowerCase() },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().details).toEqual([{ path: 'immatriculation', message: expect.stringMatching(/^Le véhicule GC-\d{3}-AA existe déjà dans votre flotte$/) }]);
    expect(await stored(draft.uuid)).toMatchObject({ brand: null, immatriculation: null });
  });

  it("purges the organization's drafts older than 24 hours on the next create-empty, nothing else", async () => {
    const old = (await createEmpty()).json();
    const recent = (await createEmpty()).json();
    const oldVehicule = await createInGamma();
    await t.seed((tx) =>
      tx.execute(sql`UPDATE vehicules SET created_at = now() - interval '25 hours' WHERE uuid IN (${old.uuid}, ${oldVehicule.uuid})`),
    );
    await t.seed((tx) => tx.execute(sql`UPDATE vehicules SET created_at = now() - interval '23 hours' WHERE uuid = ${recent.uuid}`));
    expect(await stored(old.uuid)).not.toBeNull();
    const fresh = await createEmpty();
    expect(fresh.statusCode).toBe(201);
    expect(await stored(old.uuid)).toBeNull();
    expect(await stored(recent.uuid)).not.toBeNull();
    // A completed vehicle is never a draft, however old; another organization's drafts are its own business.
    expect(await stored(oldVehicule.uuid)).not.toBeNull();
    expect(await stored(foreign.draft.uuid)).not.toBeNull();
    expect((await t.as(userC, { method: 'GET', url: `/api/vehicule/${old.uuid}` })).statusCode).toBe(404);
  });

  it('asks a user without organization to choose one', async () => {
    const response = await createEmpty(orphan);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('PATCH /api/vehicule/{uuid}', () => {
  const patch = (uuid: string, payload: Record<string, unknown>, token = userC) => t.as(token, { method: 'PATCH', url: `/api/vehicule/${uuid}`, payload });

  it('edits the fields sent, normalises the plate and keeps the rest', async () => {
    const created = await createInGamma({ entryDate: '2022-01-01' });
    const plate = nextPlate();
    const response = await patch(created.uuid, { model: 'Kangoo E-Tech', type: 'VP', immatriculation: ` ${plate.toLowerCase().replaceAll('-', ' ')} `, circulationDate: '2021-12-01' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      uuid: created.uuid,
      brand: 'Renault',
      model: 'Kangoo E-Tech',
      type: 'VP',
      immatriculation: plate.replaceAll('-', ''),
      circulationDate: '2021-12-01',
      entryDate: '2022-01-01',
      immatriculationWarning: null,
    });
    expect(await stored(created.uuid)).toMatchObject({ model: 'Kangoo E-Tech', immatriculation: plate.replaceAll('-', '') });
    const cleared = await patch(created.uuid, { circulationDate: null, entryDate: null });
    expect(cleared.json()).toMatchObject({ circulationDate: null, entryDate: null });
  });

  it('accepts a foreign plate with a warning, as typed', async () => {
    const created = await createInGamma();
    const response = await patch(created.uuid, { immatriculation: 'HH-ab 1234' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ immatriculation: 'HHAB1234', immatriculationWarning: 'Format non français ou inhabituel : vérifiez l’immatriculation' });
  });

  it('refuses the plate of another active vehicle (409), allows its own and that of an archived one', async () => {
    const a = await createInGamma();
    const b = await createInGamma();
    const before = await stored(b.uuid);
    const display = `${a.immatriculation.slice(0, 2)}-${a.immatriculation.slice(2, 5)}-${a.immatriculation.slice(5)}`;
    const response = await patch(b.uuid, { immatriculation: display.toLowerCase().replaceAll('-', ' '), brand: 'Autre' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      message: `Le véhicule ${display} existe déjà dans votre flotte`,
      details: [{ path: 'immatriculation', message: `Le véhicule ${display} existe déjà dans votre flotte` }],
    });
    expect(await stored(b.uuid)).toEqual(before);
    expect((await patch(b.uuid, { immatriculation: b.immatriculation, brand: 'Dacia' })).statusCode).toBe(200);
    expect((await t.as(userC, { method: 'DELETE', url: `/api/vehicule/${a.uuid}` })).statusCode).toBe(200);
    expect((await patch(b.uuid, { immatriculation: a.immatriculation })).json()).toMatchObject({ immatriculation: a.immatriculation });
  });

  it('checks the date rules against the stored dates, not only those sent', async () => {
    const created = await createInGamma({ circulationDate: '2020-01-01', entryDate: '2021-01-01', exitDate: '2023-01-01' });
    const before = await stored(created.uuid);
    const exitRule = { path: 'exitDate', message: "La date de sortie doit être postérieure ou égale à la date d'entrée" };
    const entryRule = { path: 'entryDate', message: "La date d'entrée dans la flotte ne peut précéder la mise en circulation" };
    for (const [payload, details] of [
      [{ exitDate: '2020-12-31' }, [exitRule]],
      [{ entryDate: '2023-01-02' }, [exitRule]],
      [{ entryDate: '2019-12-31' }, [entryRule]],
      [{ circulationDate: '2021-01-02' }, [entryRule]],
      [{ exitDate: '2019-06-01', circulationDate: '2021-06-01' }, [exitRule, entryRule]],
    ] as const) {
      const response = await patch(created.uuid, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().details).toEqual(details);
      expect(response.json().message).toBe(`Données invalides (${details[0]!.path}) : ${details[0]!.message}`);
    }
    expect(await stored(created.uuid)).toEqual(before);
    // Clearing the exit date lifts its rule; the boundaries (same day) are allowed.
    expect((await patch(created.uuid, { exitDate: null, entryDate: '2024-01-01' })).json()).toMatchObject({ entryDate: '2024-01-01', exitDate: null });
    expect((await patch(created.uuid, { exitDate: '2024-01-01', circulationDate: '2024-01-01' })).statusCode).toBe(200);
  });

  it.each([
    [{ brand: '' }, 'brand', 'La marque est obligatoire'],
    [{ model: '   ' }, 'model', 'Le modèle est obligatoire'],
    [{ brand: null }, 'brand', 'La marque est obligatoire'],
    [{ type: 'ZZ' }, 'type', 'Catégorie de véhicule inconnue'],
    [{ type: null }, 'type', 'La catégorie est obligatoire'],
    [{ immatriculation: null }, 'immatriculation', "L'immatriculation est obligatoire"],
    [{ immatriculation: '- -' }, 'immatriculation', "L'immatriculation est obligatoire"],
    [{ immatriculation: 'AB#123#CD' }, 'immatriculation', 'que des lettres et des chiffres'],
    [{ entryDate: '2024-02-01', exitDate: '2024-01-01' }, 'exitDate', 'La date de sortie doit être postérieure'],
    [{ exitDate: 'demain' }, 'exitDate', 'Date invalide'],
    [{ organizationUuid: '00000000-0000-4000-8000-000000000000' }, '', 'Clé non reconnue'],
    [{ archivedAt: null }, '', 'Clé non reconnue'],
  ])('refuses %j with a French 400 on %s, changes nothing', async (payload, path, message) => {
    const created = await createInGamma();
    const before = await stored(created.uuid);
    const response = await patch(created.uuid, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await stored(created.uuid)).toEqual(before);
  });
});

describe('PATCH /api/vehicule/category/{id}', () => {
  const initial = { kangoo: 'VP', master: 'VUL', ducato: 'VUL', clio: 'VUL', yaris: 'AUTRE', draft: null } as const;
  const types = () =>
    t.seed(async (tx) => {
      const rows = await tx.select({ uuid: vehicules.uuid, type: vehicules.type }).from(vehicules).where(inArray(vehicules.uuid, Object.values(delta).map((v) => v.uuid)));
      return Object.fromEntries(Object.entries(delta).map(([name, v]) => [name, rows.find((row) => row.uuid === v.uuid)!.type]));
    });
  const category = (path: string, token = userD) => t.as(token, { method: 'PATCH', url: `/api/vehicule/category/${path}` });

  // Every test moves categories of the shared rows: put them back, even after a failure halfway.
  afterEach(async () => {
    await t.seed(async (tx) => {
      for (const [name, type] of Object.entries(initial)) {
        await tx.update(vehicules).set({ type }).where(eq(vehicules.uuid, delta[name as keyof typeof delta].uuid));
      }
      await tx.update(vehicules).set({ type: 'VP' }).where(eq(vehicules.uuid, foreign.active.uuid));
    });
  });

  it('without filter moves every active vehicle (never drafts or archived ones) and counts those that changed', async () => {
    const before = (await get(userD)).json();
    const response = await category('VP');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated: 3 });
    expect(await types()).toEqual({ kangoo: 'VP', master: 'VP', ducato: 'VP', clio: 'VUL', yaris: 'VP', draft: null });
    expect((await get(userD)).json()).toMatchObject({ total: before.total, nbInActivity: before.nbInActivity, nbOfArchived: before.nbOfArchived });
    expect((await category('VP')).json()).toEqual({ updated: 0 });
  });

  it.each([
    ['PL?search=renault', 2, { kangoo: 'PL', master: 'PL' }],
    ['PL?search=RENAULT&withArchived=true', 3, { kangoo: 'PL', master: 'PL', clio: 'PL' }],
    ['AUTRE?onlyArchived=true', 1, { clio: 'AUTRE' }],
    ['PL?types=VUL', 2, { master: 'PL', ducato: 'PL' }],
    ['PL?types=VUL,AUTRE&search=a', 3, { master: 'PL', ducato: 'PL', yaris: 'PL' }],
    ['VP?search=da-10', 3, { master: 'VP', ducato: 'VP', yaris: 'VP' }],
    // Yaris (no dates) matches but is already AUTRE; Ducato left on 2023-06-30.
    ['AUTRE?start=2024-01-01&end=2024-12-31', 2, { kangoo: 'AUTRE', master: 'AUTRE' }],
    // Master enters on 2024-07-01, the day after the end.
    ['PL?end=2024-06-30', 3, { kangoo: 'PL', ducato: 'PL', yaris: 'PL' }],
    ['PL?end=2024-07-01&start=2024-07-01', 3, { kangoo: 'PL', master: 'PL', yaris: 'PL' }],
    ['PL?start=2023-06-30&types=VUL', 2, { master: 'PL', ducato: 'PL' }],
    ['TRACTEUR?search=poids', 0, {}],
  ])('%s updates the vehicles matching the list filters', async (path, updated, changed) => {
    const response = await category(path);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated });
    expect(await types()).toEqual({ ...initial, ...changed });
  });

  it.each([
    ['XX', 'id', 'Catégorie de véhicule inconnue'],
    ['vp', 'id', 'Catégorie de véhicule inconnue'],
    ['VP?types=VP,XX', 'types', 'Catégorie inconnue : XX'],
    ['VP?start=2024-06-30&end=2024-01-01', 'end', 'La date de début doit précéder la date de fin'],
    ['VP?start=hier', 'start', 'Date invalide'],
    ['VP?withArchived=oui', 'withArchived', 'true ou false'],
  ])('refuses %s with a French 400, changes nothing', async (path, detailPath, message) => {
    const response = await category(path);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Données invalides/);
    expect(response.json().details).toContainEqual({ path: detailPath, message: expect.stringContaining(message) });
    expect(await types()).toEqual(initial);
  });

  it("touches only the caller's organization", async () => {
    const alphaBefore = await t.seed((tx) => tx.select().from(vehicules).orderBy(vehicules.uuid));
    const response = await category('ENGIN_AGRICOLE', outsider);
    expect(response.json()).toEqual({ updated: 1 });
    expect((await stored(foreign.active.uuid))!.type).toBe('ENGIN_AGRICOLE');
    expect((await stored(foreign.archived.uuid))!.type).toBe('VP');
    const changed = (await t.seed((tx) => tx.select().from(vehicules).orderBy(vehicules.uuid))).filter(
      (row, i) => row.type !== alphaBefore[i]!.type,
    );
    expect(changed.map((row) => row.uuid)).toEqual([foreign.active.uuid]);
  });
});
