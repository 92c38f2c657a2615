import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { multipartFile } from '../../../test/multipart.js';

// Issue 13: « An exported file imports back unchanged ». Each register's CSV and XLSX export,
// read back by the import with the mapping it suggests, finds every row and changes none.

let t: TestContext;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.seed(async (tx) => {
    const org = await createOrganization(tx, { title: 'Transports Aller-Retour' });
    const owner = await createUser(tx, { email: 'admin@aller-retour.fr' });
    await linkUser(tx, org.uuid, owner.uuid, 'ADMIN');
    await createDrivers(tx, org.uuid, [
      { firstName: 'Hélène', lastName: 'Lefèvre', email: 'helene.lefevre@aller-retour.fr', phone: '+33612345678' },
      // A foreign number: its CSV cell starts with « + », neutralised by the export as « '+44 … ».
      { firstName: 'John', lastName: "O'Brien", email: null, phone: '+442079460958' },
      { firstName: '=Zoé', lastName: '@Durand', email: null, phone: '+33145678901' },
    ]);
    const [clio, c3] = await createVehicules(tx, org.uuid, [
      { immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Clio', entryDate: '2020-01-01' },
      { immatriculation: 'EF-456-GH', brand: 'Citroën', model: '-C3; « Aircross »', entryDate: '2021-06-15' },
      { immatriculation: 'XY-999-ZA', brand: '+Peugeot', model: '208\nGT', entryDate: '2019-05-01' },
    ]);
    const [paul] = await createDrivers(tx, org.uuid, [{ firstName: 'Paul', lastName: 'Martin', email: 'paul.martin@aller-retour.fr', phone: '+33611223344' }]);
    await createSinisters(tx, org.uuid, [
      { sinisterIntermediateRef: 'SIN-2026-001', vehiculeUuid: clio!.uuid, driverUuid: paul!.uuid, sinisterDate: '2026-03-14', city: 'Lyon', isDeclared: true, responsibilityRate: 100, totalCostCents: 123456, status: 'closed', description: 'Choc arrière ; « feu rouge »' },
      { sinisterIntermediateRef: '-REF 2', vehiculeUuid: c3!.uuid, sinisterDate: '2025-12-01', isDeclared: false, responsibilityRate: 50, totalCostCents: 9900, status: 'inProgress', paidCents: 4000 },
    ]);
  });
  admin = await t.login('admin@aller-retour.fr');
});
afterAll(() => t.close());

describe.each([
  { entity: 'driver', path: '/api/driver', rows: 4 },
  { entity: 'vehicule', path: '/api/vehicule', rows: 3 },
  { entity: 'sinister', path: '/api/sinister', rows: 2 },
])('$entity', ({ entity, path, rows }) => {
  it.each(['csv', 'xlsx'])('imports its own %s export back with nothing to change', async (format) => {
    const exported = await t.as(admin, { method: 'GET', url: `${path}/export?format=${format}` });
    expect(exported.statusCode, exported.body).toBe(200);

    const preview = await t.as(admin, { method: 'POST', url: `/api/import/${entity}/preview`, ...multipartFile(`export.${format}`, exported.rawPayload) });
    expect(preview.statusCode, preview.body).toBe(200);
    const { importId, suggestedMapping, rowCount } = preview.json<{ importId: string; suggestedMapping: Record<string, number | null>; rowCount: number }>();
    expect(rowCount).toBe(rows);

    const check = await t.as(admin, { method: 'POST', url: `/api/import/${importId}/validate`, payload: { mapping: suggestedMapping } });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toMatchObject({ valid: rows, invalid: 0, errors: [], counts: { created: 0, updated: 0, unchanged: rows, skipped: 0, exited: 0 } });

    const done = await t.as(admin, { method: 'POST', url: `/api/import/${importId}/commit`, payload: { mapping: suggestedMapping } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ created: 0, updated: 0, unchanged: rows, skipped: 0, exited: 0 });
  });
});
