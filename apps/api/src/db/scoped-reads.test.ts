import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDrivers, createOrganization } from '../seed/factories.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { drivers } from './schema/drivers.js';
import { readTenant } from './scope.js';
import { inlineParams, runScopedRead, toLiteral } from './scoped-reads.js';

describe('inlined literals', () => {
  it.each([
    [null, 'NULL'],
    [undefined, 'NULL'],
    [42, '(42)'],
    [-5, '(-5)'],
    [true, 'TRUE'],
    ["l'Étoile", "'l''Étoile'"],
    ['a\\b', " E'a\\\\b'"],
    [new Date('2026-01-02T03:04:05.000Z'), "'2026-01-02T03:04:05.000Z'"],
  ])('renders %j as %s', (value, literal) => {
    expect(toLiteral(value)).toBe(literal);
  });

  it('refuses what it cannot render safely', () => {
    expect(() => toLiteral({ a: 1 })).toThrow(/unsupported/);
    expect(() => toLiteral(Number.NaN)).toThrow(/non-finite/);
    expect(() => inlineParams('select $2', ['x'])).toThrow(/missing parameter/);
  });

  it('keeps "x - $1" from turning into a comment', () => {
    expect(inlineParams('select 1 - $1', [-1])).toBe('select 1 - (-1)');
  });
});

// Single-message reads exist on PostgreSQL pools only; PGlite reads go through withTenant.
describe.runIf(inject('testDb').kind === 'postgres')('single-message scoped reads on PostgreSQL', () => {
  let t: TestContext;
  let orgA: { uuid: string };
  let orgB: { uuid: string };
  beforeAll(async () => {
    t = await createTestApp();
    ({ orgA, orgB } = await t.seed(async (tx) => {
      const orgA = await createOrganization(tx, { title: 'A' });
      const orgB = await createOrganization(tx, { title: 'B' });
      await createDrivers(tx, orgA.uuid, [{ lastName: 'Alpha' }]);
      await createDrivers(tx, orgB.uuid, [{ lastName: 'Bêta' }, { lastName: 'Bêta 2' }]);
      return { orgA, orgB };
    }));
  });
  afterAll(() => t.close());

  it('sees only the scoped organization, with no WHERE at all', async () => {
    const a = await readTenant(t.database.db, orgA.uuid, (tx) => tx.select({ lastName: drivers.lastName }).from(drivers));
    const b = await readTenant(t.database.db, orgB.uuid, (tx) => tx.select({ lastName: drivers.lastName }).from(drivers));
    expect(a.map((d) => d.lastName)).toEqual(['Alpha']);
    expect(b.map((d) => d.lastName).sort()).toEqual(['Bêta', 'Bêta 2']);
  });

  it('leaves nothing on any pooled connection after the reads', async () => {
    await Promise.all(Array.from({ length: 8 }, () => readTenant(t.database.db, orgA.uuid, (tx) => tx.select().from(drivers))));
    const pool = t.database.pool!;
    const clients = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
    try {
      for (const client of clients) {
        const { rows } = await client.query<{ org: string | null; role: string; visible: string }>(
          `select nullif(current_setting('app.org_id', true), '') as org, current_user as role, (select count(*) from drivers)::text as visible`,
        );
        expect(rows[0]).toEqual({ org: null, role: 'flotte_app', visible: '0' });
      }
    } finally {
      clients.forEach((client) => client.release());
    }
  });

  it('refuses to run a query outside any scope', async () => {
    await expect(t.database.scopedReads!.select().from(drivers)).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/outside of a scope/) },
    });
  });

  it('keeps values as values: a quote in a search cannot escape its literal', async () => {
    const rows = await runScopedRead({ role: 'flotte_app', organizationUuid: orgA.uuid }, () =>
      t.database.scopedReads!.select().from(drivers).where(sql`${drivers.lastName} = ${"x' or '1'='1"}`),
    );
    expect(rows).toEqual([]);
  });
});
