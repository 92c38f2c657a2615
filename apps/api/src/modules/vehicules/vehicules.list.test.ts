import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vehicules } from '../../db/schema/vehicules.js';
import { FEATURED, openVehiculeFleets, vehiculeHelpers } from '../../../test/fixtures/vehicules.js';
import type { TestContext } from '../../../test/test-app.js';

// Reads only: Alpha's register as seeded, seen by its member, by Bêta's admin and by a user without organization.
let t: TestContext;
let alphaDraft: { uuid: string };
let userA: string;
let outsider: string;
let orphan: string;
const { get, plates } = vehiculeHelpers(() => t);

beforeAll(async () => {
  const fleets = await openVehiculeFleets(['userA', 'outsider', 'orphan']);
  ({ t, alphaDraft } = fleets);
  ({ userA, outsider, orphan } = fleets.tokens);
});
afterAll(() => t.close());

describe('GET /api/vehicule', () => {
  it('pages active vehicles, 10 by default, sorted by plate, drafts left out, with the counts', async () => {
    const response = await get(userA);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ page: 1, nbOfPages: 3, total: 21, nbInActivity: 21, nbOfArchived: 2 });
    expect(plates(body)).toEqual(['1234AB75', 'AB123CD', 'EF456GH', ...Array.from({ length: 7 }, (_, i) => `GA${100 + i}ZZ`)]);
    expect(body.data[1]).toEqual({
      uuid: expect.any(String),
      brand: 'Peugeot',
      model: '308',
      type: 'VP',
      circulationDate: '2019-03-01',
      entryDate: '2020-01-15',
      exitDate: null,
      immatriculation: 'AB123CD',
      immatriculationWarning: null,
      documents: [],
      isArchived: false,
      archivedAt: null,
      createdAt: '2025-01-06T10:00:00.000Z',
    });
    expect(response.body).not.toContain('Secret');
    expect(response.body).not.toContain(alphaDraft.uuid);
  });

  it('gives page 2 the next ten, page 3 the last one, and an empty page beyond', async () => {
    expect(plates((await get(userA, '?page=2')).json())).toEqual([...Array.from({ length: 8 }, (_, i) => `GA${107 + i}ZZ`), 'JK789LM', 'MAB1234']);
    expect((await get(userA, '?page=3')).json()).toMatchObject({ page: 3, nbOfPages: 3, data: [{ immatriculation: 'NP321QR' }] });
    expect((await get(userA, '?page=9')).json()).toMatchObject({ data: [], page: 9, nbOfPages: 3, total: 21 });
    expect((await get(userA, '?page=2&limit=20')).json()).toMatchObject({ data: [{ immatriculation: 'NP321QR' }], nbOfPages: 2 });
  });

  it('accepts limit 1000 (the "all vehicles" fetch uses page 1, limit 999)', async () => {
    expect((await get(userA, '?limit=1000')).json()).toMatchObject({ nbOfPages: 1, total: 21 });
    expect((await get(userA, '?page=1&limit=999')).json().data).toHaveLength(21);
  });

  it('withArchived includes archived vehicles, onlyArchived shows only them; drafts never; the counts do not move', async () => {
    const all = (await get(userA, '?withArchived=true&limit=100')).json();
    expect(all).toMatchObject({ total: 23, nbInActivity: 21, nbOfArchived: 2 });
    expect(plates(all)).toContain('XY999ZA');
    expect(plates(all)).not.toContain(null);
    const only = (await get(userA, '?onlyArchived=true')).json();
    expect(only).toMatchObject({ total: 2, nbInActivity: 21, nbOfArchived: 2 });
    expect(plates(only)).toEqual(['AB124CD', 'XY999ZA']);
    expect(only.data.every((v: { isArchived: boolean; archivedAt: string }) => v.isArchived && v.archivedAt)).toBe(true);
    expect(plates((await get(userA, '?onlyArchived=1&withArchived=1')).json())).toEqual(['AB124CD', 'XY999ZA']);
    expect((await get(userA, '?withArchived=false&onlyArchived=0')).json().total).toBe(21);
  });

  it.each([
    ['immatriculation', ['1234AB75', 'AB123CD', 'EF456GH', 'JK789LM', 'MAB1234', 'NP321QR']],
    ['model', ['AB123CD', 'JK789LM', 'MAB1234', '1234AB75', 'EF456GH', 'NP321QR']],
    // Unknown dates sort last going up (first going down), as PostgreSQL orders NULL.
    ['circulationDate', ['1234AB75', 'EF456GH', 'AB123CD', 'MAB1234', 'JK789LM', 'NP321QR']],
    ['entryDate', ['AB123CD', 'EF456GH', 'JK789LM', 'MAB1234', '1234AB75', 'NP321QR']],
    ['createdAt', ['MAB1234', '1234AB75', 'NP321QR', 'JK789LM', 'EF456GH', 'AB123CD']],
  ])('sorts by %s, and by -%s in reverse', async (column, expected) => {
    expect(plates((await get(userA, `?${FEATURED}&sortBy=${column}`)).json())).toEqual(expected);
    expect(plates((await get(userA, `?${FEATURED}&sortBy=-${column}`)).json())).toEqual([...expected].reverse());
  });

  it.each([
    ['brand', ['Citroën', 'Iveco', 'Peugeot', 'Renault', 'Renault', 'Volkswagen']],
    ['type', ['PL', 'VP', 'VP', 'VUL', 'VUL', 'VUL']],
    ['exitDate', ['2023-12-31', '2024-06-30', '2025-03-14', null, null, null]],
  ])('sorts by %s (ties broken by uuid), and by -%s in reverse', async (column, expected) => {
    const up = (await get(userA, `?${FEATURED}&sortBy=${column}`)).json().data;
    expect(up.map((v: Record<string, unknown>) => v[column])).toEqual(expected);
    const down = (await get(userA, `?${FEATURED}&sortBy=-${column}`)).json().data;
    expect(down.map((v: Record<string, unknown>) => v[column])).toEqual([...expected].reverse());
  });

  it('sorts the whole register, not only the page (brand descending puts Volkswagen first)', async () => {
    expect(plates((await get(userA, '?sortBy=-brand&limit=1')).json())).toEqual(['MAB1234']);
    expect(plates((await get(userA, '?sortBy=brand&withArchived=true&limit=1')).json())).toEqual(['JK789LM']);
  });

  it.each([
    ['?sortBy=password', 'sortBy', 'Tri invalide'],
    ['?sortBy=-organizationUuid', 'sortBy', 'Tri invalide'],
    ['?sortBy=Brand', 'sortBy', 'Tri invalide'],
    ['?sortBy=brand,model', 'sortBy', 'Tri invalide'],
    ['?limit=1001', 'limit', '1000'],
    ['?limit=0', 'limit', 'au moins 1'],
    ['?page=0', 'page', 'commence à 1'],
    ['?page=deux', 'page', 'nombre'],
    ['?withArchived=oui', 'withArchived', 'true ou false'],
    ['?onlyArchived=yes', 'onlyArchived', 'true ou false'],
    ['?types=VP,XX', 'types', 'Catégorie inconnue : XX'],
    ['?types=vp', 'types', 'Catégorie inconnue : vp'],
    ['?start=2024-13-01', 'start', 'Date invalide'],
    ['?end=31/12/2024', 'end', 'Date invalide'],
    ['?start=2024-06-30&end=2024-01-01', 'end', 'La date de début doit précéder la date de fin'],
    [`?search=${'a'.repeat(201)}`, 'search', '200 caractères'],
  ])('refuses %s with a 400 naming %s, in French', async (query, path, message) => {
    const response = await get(userA, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Données invalides/);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it.each([
    ['types=VUL', ['JK789LM', 'MAB1234', 'NP321QR']],
    ['types=VP,PL', ['1234AB75', 'AB123CD', 'EF456GH']],
    ['types=%20VP%20,%20PL%20', ['1234AB75', 'AB123CD', 'EF456GH']],
    ['types=VUL&withArchived=true', ['JK789LM', 'MAB1234', 'NP321QR', 'XY999ZA']],
    ['types=VP&onlyArchived=true', ['AB124CD']],
    ['types=TRACTEUR', []],
  ])('filters on categories: %s', async (query, expected) => {
    const body = (await get(userA, `?${query}`)).json();
    expect(plates(body)).toEqual(expected);
    expect(body).toMatchObject({ total: expected.length, nbInActivity: 21, nbOfArchived: 2 });
  });

  it('counts the filtered total across pages (15 AUTRE), and ignores an empty types', async () => {
    expect((await get(userA, '?types=AUTRE')).json()).toMatchObject({ total: 15, nbOfPages: 2, nbInActivity: 21 });
    expect((await get(userA, '?types=AUTRE&page=2')).json().data).toHaveLength(5);
    expect((await get(userA, '?types=')).json().total).toBe(21);
  });

  it.each([
    // NP-321-QR left on 2023-12-31, the day before; 1234 AB 75 entered on the start day.
    ['start=2024-01-01&end=2024-06-30', ['1234AB75', 'AB123CD', 'EF456GH', 'JK789LM', 'MAB1234']],
    // Leaving on the day or entering the day after: only the one leaving is in.
    ['start=2023-12-31&end=2023-12-31', ['AB123CD', 'EF456GH', 'JK789LM', 'MAB1234', 'NP321QR']],
    // EF-456-GH left on 2024-06-30.
    ['start=2024-07-01', ['1234AB75', 'AB123CD', 'JK789LM', 'MAB1234']],
    // Only the vehicle without entry date can have been there before 2020.
    ['end=2019-12-31', ['NP321QR']],
    // AB-123-CD entered on the end day.
    ['end=2020-01-15', ['AB123CD', 'NP321QR']],
    // M AB 1234 leaves on 2025-03-14: in on that day, out the day after.
    ['start=2025-03-14&end=2025-03-14', ['1234AB75', 'AB123CD', 'JK789LM', 'MAB1234']],
    ['start=2025-03-15', ['1234AB75', 'AB123CD', 'JK789LM']],
    ['start=2023-06-01&end=2023-06-30&withArchived=true', ['AB123CD', 'AB124CD', 'EF456GH', 'JK789LM', 'MAB1234', 'NP321QR', 'XY999ZA']],
  ])('keeps the vehicles in the fleet at some point of the period: %s', async (query, expected) => {
    const body = (await get(userA, `?${FEATURED}&${query}`)).json();
    expect(plates(body)).toEqual(expected);
    expect(body).toMatchObject({ total: expected.length, nbInActivity: 21, nbOfArchived: 2 });
  });

  it('keeps the vehicles without dates (the fillers) in every period', async () => {
    expect((await get(userA, '?start=2024-01-01&end=2024-06-30')).json().total).toBe(20);
    expect((await get(userA, '?end=1990-01-01')).json()).toMatchObject({ total: 16, nbInActivity: 21 });
  });

  it.each([
    ['AB 123 CD', ['AB123CD']],
    ['ab123cd', ['AB123CD']],
    ['ab-123-cd', ['AB123CD']],
    ['ab-123', ['AB123CD', 'MAB1234']],
    ['1234 ab 75', ['1234AB75']],
    ['ef.456', ['EF456GH']],
    ['m ab 12', ['MAB1234']],
    ['citroen', ['JK789LM']],
    ['CITROËN', ['JK789LM']],
    ['mégane', ['EF456GH']],
    ['MEGANE', ['EF456GH']],
    ['renault', ['EF456GH', 'NP321QR']],
    ['Renault Trafic', ['NP321QR']],
    ['berl', ['JK789LM']],
    ['308', ['AB123CD']],
    ['secret', []],
    ['%', []],
    ['_', []],
    ['---', []],
  ])('search %j finds plates in any spelling and brand/model without accents or case', async (search, expected) => {
    const body = (await get(userA, `?search=${encodeURIComponent(search)}`)).json();
    expect(plates(body)).toEqual(expected);
    expect(body).toMatchObject({ total: expected.length, nbInActivity: 21, nbOfArchived: 2 });
  });

  it('combines search with the archive filter, the categories, the period and the pages', async () => {
    expect(plates((await get(userA, '?search=peugeot')).json())).toEqual(['AB123CD']);
    expect(plates((await get(userA, '?search=peugeot&withArchived=true')).json())).toEqual(['AB123CD', 'AB124CD']);
    expect(plates((await get(userA, '?search=peugeot&onlyArchived=true')).json())).toEqual(['AB124CD']);
    expect(plates((await get(userA, '?search=renault&types=VUL')).json())).toEqual(['NP321QR']);
    expect(plates((await get(userA, '?search=renault&start=2024-07-01')).json())).toEqual([]);
    expect(plates((await get(userA, '?search=ab&sortBy=-immatriculation')).json())).toEqual(['MAB1234', 'AB123CD', '1234AB75']);
    const paged = (await get(userA, '?search=ga1&limit=4&page=4')).json();
    expect(paged).toMatchObject({ total: 15, nbOfPages: 4, page: 4 });
    expect(plates(paged)).toEqual(['GA112ZZ', 'GA113ZZ', 'GA114ZZ']);
  });

  it('shows another organization only its own vehicles, and asks a user without organization to choose one', async () => {
    const body = (await get(outsider, '?withArchived=true')).json();
    expect(body).toMatchObject({ total: 2, nbInActivity: 1, nbOfArchived: 1 });
    expect(body.data.map((v: { brand: string }) => v.brand)).toEqual(['Secret', 'Secret']);
    const none = await get(orphan);
    expect(none.statusCode).toBe(403);
    expect(none.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('GET /api/vehicule/{uuid}', () => {
  it('returns one vehicle, archived ones and drafts included', async () => {
    const [archivedRow] = await t.seed((tx) => tx.select().from(vehicules).where(eq(vehicules.immatriculation, 'XY999ZA')));
    expect((await t.as(userA, { method: 'GET', url: `/api/vehicule/${archivedRow!.uuid}` })).json()).toMatchObject({
      immatriculation: 'XY999ZA',
      isArchived: true,
      exitDate: '2023-12-31',
    });
    const draft = await t.as(userA, { method: 'GET', url: `/api/vehicule/${alphaDraft.uuid}` });
    expect(draft.statusCode).toBe(200);
    expect(draft.json()).toMatchObject({ uuid: alphaDraft.uuid, immatriculation: null, brand: null, type: null, immatriculationWarning: null });
  });

  it('answers 404 for an unknown uuid', async () => {
    const response = await t.as(userA, { method: 'GET', url: '/api/vehicule/00000000-0000-4000-8000-000000000000' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Véhicule introuvable');
  });
});
