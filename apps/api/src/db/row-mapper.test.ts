import { getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-app.js';
import { createOrganization, createSinisters, createVehicules } from '../seed/factories.js';
import type { DatabaseHandle } from './client.js';
import { sinisters } from './schema/sinisters.js';
import { vehicules } from './schema/vehicules.js';
import { readTenant, withSystem } from './scope.js';
import { compileRowMapper } from './statements.js';

let database: DatabaseHandle;
let org: string;

beforeAll(async () => {
  database = await createTestDatabase();
  org = await withSystem(database.db, async (tx) => {
    const organization = await createOrganization(tx, { title: 'Société Décodage' });
    const [vehicle] = await createVehicules(tx, organization.uuid, [
      { immatriculation: 'AB-123-CD', brand: 'Renault', circulationDate: '2021-03-04', entryDate: '2021-03-05', archivedAt: new Date('2025-01-02T03:04:05.678Z') },
      { immatriculation: null, brand: null, type: null },
    ]);
    await createSinisters(tx, organization.uuid, [{ vehiculeUuid: vehicle!.uuid, sinisterDate: '2026-02-03' }]);
    return organization.uuid;
  });
});
afterAll(() => database?.close());

describe('the rows of a prepared statement, decoded by decoders found once', () => {
  it('are the objects Drizzle makes: every column type, null, mapped and aliased expressions', async () => {
    await readTenant(database.db, org, async (tx) => {
      const select = () =>
        tx
          .select({
            ...getTableColumns(vehicules),
            // Drizzle names a one-table selection's columns unqualified: the subquery names its own.
            claims: sql<number>`(select count(*) from sinisters s where s.vehicule_uuid = vehicules.uuid)`.mapWith(Number),
            label: sql<string>`upper(${vehicules.brand})`.as('label'),
            nothing: sql<string | null>`null::text`,
          })
          .from(vehicules)
          .orderBy(vehicules.immatriculation);
      const theirs = select().prepare('');
      const ours = select().prepare('');
      compileRowMapper(ours);
      expect((ours as unknown as { customResultMapper?: unknown }).customResultMapper).toBeTypeOf('function');
      const expected = await theirs.execute();
      const actual = await ours.execute();
      expect(expected).toHaveLength(2);
      expect(actual).toStrictEqual(expected);
      // Decoded as Drizzle decodes: a timestamp as a Date, a count as a number, a null as null.
      expect(actual[0]!.archivedAt).toBeInstanceOf(Date);
      expect(actual[0]!.claims).toBe(1);
      expect(actual[1]!.brand).toBeNull();
    });
  });

  it('leaves a nested selection (a joined table under its name) to Drizzle', async () => {
    await readTenant(database.db, org, async (tx) => {
      const nested = tx.select({ uuid: sinisters.uuid, vehicle: { plate: vehicules.immatriculation } }).from(sinisters).leftJoin(vehicules, sql`${vehicules.uuid} = ${sinisters.vehiculeUuid}`).prepare('');
      compileRowMapper(nested);
      expect((nested as unknown as { customResultMapper?: unknown }).customResultMapper).toBeUndefined();
      expect(await nested.execute()).toEqual([{ uuid: expect.any(String), vehicle: { plate: 'AB123CD' } }]);
    });
  });
});
