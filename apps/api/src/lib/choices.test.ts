import { CHOICES_LIMIT } from '@flotte/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDrivers, createOrganization, createUser, createVehicules, linkUser } from '../seed/factories.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/**
 * The records a form offers (the claim form's vehicle and driver, issue 22): every one of the
 * fleet can be chosen, the whole list at once for a small fleet, searched on the server beyond.
 */

let t: TestContext;
let alpha: string;
let beta: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: 'Transports Alpha' });
    const orgB = await createOrganization(tx, { title: 'Bêta BTP' });
    const a = await createUser(tx, { email: 'gestion@alpha.fr' });
    const b = await createUser(tx, { email: 'gestion@beta.fr' });
    await linkUser(tx, orgA.uuid, a.uuid);
    await linkUser(tx, orgB.uuid, b.uuid);
    await createVehicules(tx, orgA.uuid, [
      { immatriculation: 'EF-456-GH', brand: 'Peugeot', model: 'Partner' },
      { immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Kangoo' },
      { immatriculation: 'XY-999-ZA', brand: 'Citroën', model: 'Berlingo', archivedAt: new Date('2025-01-01') },
      { immatriculation: null, brand: null, model: null },
      ...Array.from({ length: 250 }, (_, i) => ({ immatriculation: `GG-${String(i).padStart(3, '0')}-ZZ`, brand: 'Iveco', model: 'Daily' })),
    ]);
    await createVehicules(tx, orgB.uuid, [{ immatriculation: 'AB-124-CD', brand: 'Renault', model: 'Secret' }]);
    await createDrivers(tx, orgA.uuid, [
      { firstName: 'Zoé', lastName: 'Écuyer', phone: '+33612345678', email: 'zoe@alpha.fr' },
      { firstName: 'Adam', lastName: 'Écuyer' },
      { firstName: 'Jérôme', lastName: 'Bernard' },
      { firstName: 'Ancien', lastName: 'Parti', archivedAt: new Date('2025-01-01') },
    ]);
    await createDrivers(tx, orgB.uuid, [{ firstName: 'Secret', lastName: 'Bêta' }]);
  });
  alpha = await t.login('gestion@alpha.fr');
  beta = await t.login('gestion@beta.fr');
});
afterAll(() => t.close());

const get = async (token: string, url: string) => {
  const response = await t.as(token, { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('GET /api/vehicule/choices', () => {
  it('offers the vehicles in service by plate, light, and says how many there are', async () => {
    const page = await get(alpha, `/api/vehicule/choices?limit=${CHOICES_LIMIT}`);
    expect(page).toMatchObject({ total: 252, page: 1, nbOfPages: 2 });
    expect(page.data).toHaveLength(CHOICES_LIMIT);
    expect(page.data[0]).toEqual({ uuid: expect.any(String), immatriculation: 'AB123CD', brand: 'Renault', model: 'Kangoo' });
    expect(page.data[1]).toMatchObject({ immatriculation: 'EF456GH' });
    // No draft, nothing archived, nothing of another organization, anywhere in the list.
    const all = [...page.data, ...(await get(alpha, `/api/vehicule/choices?limit=${CHOICES_LIMIT}&page=2`)).data];
    expect(all.map((v: { immatriculation: string }) => v.immatriculation)).not.toContain('XY999ZA');
    expect(all.map((v: { immatriculation: string }) => v.immatriculation)).not.toContain('AB124CD');
    expect(all).toHaveLength(252);
  });

  it('finds any vehicle of a large fleet as the user types: plate in any spelling, brand, model', async () => {
    expect((await get(alpha, '/api/vehicule/choices?search=gg-249')).data).toEqual([expect.objectContaining({ immatriculation: 'GG249ZZ' })]);
    expect((await get(alpha, '/api/vehicule/choices?search=gg 249 zz')).data).toHaveLength(1);
    expect((await get(alpha, '/api/vehicule/choices?search=kangoo')).data.map((v: { immatriculation: string }) => v.immatriculation)).toEqual(['AB123CD']);
    expect((await get(alpha, '/api/vehicule/choices?search=ab-12')).data.map((v: { immatriculation: string }) => v.immatriculation)).toEqual(['AB123CD']);
    expect((await get(beta, '/api/vehicule/choices?search=ab-12')).data.map((v: { immatriculation: string }) => v.immatriculation)).toEqual(['AB124CD']);
  });

  it('refuses a bad limit in French, and a caller without a token', async () => {
    const bad = await t.as(alpha, { method: 'GET', url: '/api/vehicule/choices?limit=5000' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Données invalides (limit) : La limite ne peut pas dépasser 1000');
    expect((await t.app.inject({ method: 'GET', url: '/api/vehicule/choices' })).statusCode).toBe(401);
  });
});

describe('GET /api/driver/choices', () => {
  it('offers the active drivers by last name, then first name, light', async () => {
    const page = await get(alpha, '/api/driver/choices?limit=200');
    expect(page).toMatchObject({ total: 3 });
    expect(page.data).toEqual([
      { uuid: expect.any(String), firstName: 'Jérôme', lastName: 'Bernard', phone: null },
      { uuid: expect.any(String), firstName: 'Adam', lastName: 'Écuyer', phone: null },
      { uuid: expect.any(String), firstName: 'Zoé', lastName: 'Écuyer', phone: '+33612345678' },
    ]);
  });

  it('finds a driver by name or phone, never another organization’s', async () => {
    expect((await get(alpha, '/api/driver/choices?search=zoe')).data.map((d: { firstName: string }) => d.firstName)).toEqual(['Zoé']);
    expect((await get(alpha, '/api/driver/choices?search=06 12 34')).data.map((d: { firstName: string }) => d.firstName)).toEqual(['Zoé']);
    expect((await get(alpha, '/api/driver/choices?search=beta')).data).toEqual([]);
    expect((await get(alpha, '/api/driver/choices?search=parti')).data).toEqual([]);
  });

  it('answers 304 to a form that holds the current list', async () => {
    const first = await t.as(alpha, { method: 'GET', url: '/api/driver/choices?limit=200' });
    const again = await t.as(alpha, { method: 'GET', url: '/api/driver/choices?limit=200', headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });
});
