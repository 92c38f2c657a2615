import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDrivers, createOrganization } from '../seed/factories.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { drivers } from './schema/drivers.js';
import { type ReadTx as Tx, readTenant } from './scope.js';
import pg from 'pg';
import { schema } from './client.js';
import { createScopedReadDatabase, MAX_STATEMENTS_PER_CONNECTION, runScopedRead } from './scoped-reads.js';

// Pipelined reads exist on PostgreSQL pools only; PGlite reads go through withTenant.
describe.runIf(inject('testDb').kind === 'postgres')('pipelined scoped reads on PostgreSQL', () => {
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

  const rowsOf = async <R>(tx: Tx, query: SQL) => ((await tx.execute(query)) as unknown as { rows: R[] }).rows;
  const inOrgA = <T>(fn: (tx: Tx) => PromiseLike<T>) => runScopedRead({ role: 'flotte_app', organizationUuid: orgA.uuid }, () => fn(t.database.scopedReads!));

  it('runs the scope and the query in one transaction, as flotte_app with the organization set', async () => {
    const [row] = await inOrgA((tx) => rowsOf<{ org: string; role: string }>(tx, sql`select current_setting('app.org_id') as org, current_user as role`));
    // The setting is transaction-local: seen here, gone on the connection afterwards (test above).
    expect(row).toEqual({ org: orgA.uuid, role: 'flotte_app' });
  });

  it('parses a named query once per connection and reuses it, with new values each time', async () => {
    // One connection, so that both reads and the check land on it.
    const pool = new pg.Pool({ connectionString: (t.database.pool!.options as { connectionString: string }).connectionString, max: 1, options: '-c role=flotte_app' });
    try {
      const reads = createScopedReadDatabase(pool, schema) as unknown as Tx;
      const inA = <T>(fn: () => PromiseLike<T>) => runScopedRead({ role: 'flotte_app', organizationUuid: orgA.uuid }, fn);
      const byName = () =>
        reads.select({ lastName: drivers.lastName }).from(drivers).where(sql`${drivers.lastName} like ${sql.placeholder('prefix')}`).prepare('test_drivers_by_prefix');
      const first = await inA(() => byName().execute({ prefix: 'Al%' }));
      const again = await inA(() => byName().execute({ prefix: 'Z%' }));
      expect(first).toEqual([{ lastName: 'Alpha' }]);
      expect(again).toEqual([]);
      const prepared = await inA(() =>
        rowsOf<{ n: number; runs: number }>(
          reads,
          sql`select count(*)::int as n, coalesce(sum(generic_plans + custom_plans), 0)::int as runs from pg_prepared_statements where name = 'test_drivers_by_prefix'`,
        ),
      );
      // Kept on the connection and run twice: parsing it again would have failed (the name is taken) or restarted the count.
      expect(prepared[0]).toEqual({ n: 1, runs: 2 });
    } finally {
      await pool.end();
    }
  });

  it('reports an error of the query, then keeps serving reads and leaves no scope behind', async () => {
    await expect(inOrgA((tx) => tx.execute(sql`select 1 / ${0}::int`))).rejects.toMatchObject({ cause: { message: expect.stringMatching(/division by zero/) } });
    await expect(inOrgA((tx) => tx.select().from(drivers).where(sql`${drivers.uuid} = ${'pas-un-uuid'}`))).rejects.toBeDefined();
    const named = (tx: Tx) => tx.select().from(drivers).where(sql`${drivers.createdAt} > ${sql.placeholder('since')}::timestamptz`).prepare('test_drivers_since');
    await expect(inOrgA((tx) => named(tx).execute({ since: 'hier' }))).rejects.toBeDefined();
    expect(await inOrgA((tx) => named(tx).execute({ since: '2000-01-01' }))).toHaveLength(1);
    const rows = await readTenant(t.database.db, orgA.uuid, (tx) => tx.select({ lastName: drivers.lastName }).from(drivers));
    expect(rows).toEqual([{ lastName: 'Alpha' }]);
  });

  it('fails a query whose value cannot be sent, without touching the connection', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(inOrgA((tx) => tx.execute(sql`select ${circular}::jsonb`))).rejects.toBeDefined();
    expect(await inOrgA((tx) => tx.select().from(drivers))).toHaveLength(1);
  });

  it('reads as flotte_system with no organization in a system scope', async () => {
    const rows = await runScopedRead({ role: 'flotte_system' }, () =>
      rowsOf<{ org: string; role: string; n: number }>(
        t.database.scopedReads!,
        sql`select current_setting('app.org_id') as org, current_user as role, (select count(*)::int from drivers) as n`,
      ),
    );
    expect(rows[0]).toEqual({ org: '', role: 'flotte_system', n: 3 });
  });

  it('keeps a bounded number of named statements per connection, closing the least recently used', async () => {
    // One connection, so that every statement lands on it.
    const pool = new pg.Pool({ connectionString: (t.database.pool!.options as { connectionString: string }).connectionString, max: 1, options: '-c role=flotte_app' });
    try {
      const reads = createScopedReadDatabase(pool, schema) as unknown as Tx;
      const named = (i: number) =>
        reads.select({ n: sql<number>`${i}::int` }).from(drivers).limit(sql.placeholder('limit')).prepare(`test_bounded_${i}`);
      const inA = <T>(fn: () => PromiseLike<T>) => runScopedRead({ role: 'flotte_app', organizationUuid: orgA.uuid }, fn);
      for (let i = 0; i < MAX_STATEMENTS_PER_CONNECTION + 5; i++) expect(await inA(() => named(i).execute({ limit: 1 }))).toEqual([{ n: i }]);
      const kept = await inA(() => rowsOf<{ name: string }>(reads, sql`select name from pg_prepared_statements where name like 'test_bounded_%'`));
      expect(kept).toHaveLength(MAX_STATEMENTS_PER_CONNECTION);
      expect(kept.map((r) => r.name)).not.toContain('test_bounded_0');
      // A closed statement is parsed again when it comes back.
      expect(await inA(() => named(0).execute({ limit: 1 }))).toEqual([{ n: 0 }]);
    } finally {
      await pool.end();
    }
  });

  it('refuses a transaction on the read database', () => {
    expect(() => t.database.scopedReads!.transaction(async () => undefined)).toThrow(/no transaction in a scoped read/);
  });

  it('refuses an organization that is not a uuid', async () => {
    await expect(runScopedRead({ role: 'flotte_app', organizationUuid: "x', true); --" }, () => t.database.scopedReads!.select().from(drivers))).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/invalid organization uuid/) },
    });
  });
});
