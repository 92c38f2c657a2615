import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { seedDemoIfEmpty } from '../seed/demo.js';

/**
 * Every table of the public schema is under forced row-level security (decision 002 and its amendment),
 * except the directory tables named here with the reason: the people, the tenants and the
 * brokers' spaces above them, which the tenant role reads across its organization (sign-in,
 * member lists, the broker's name and tiers). A table added without row-level security fails
 * this test until it is given a policy or placed here with its reason.
 */
const DIRECTORY_TABLES: Record<string, string> = {
  users: 'people, before any organization: read by sign-in and by every member list',
  organizations: 'the tenants themselves',
  environments: 'the brokers’ spaces above organizations',
  environment_users: 'superadmins attached to an environment',
  environment_tiers: 'an environment’s price tiers',
};

/**
 * Tables holding secrets (token hashes, keys, counters), a broker's alerts or system-only records
 * (the billing provider's event ids): the tenant role gets no privilege on them at all, so a
 * tenant-scoped query can never read or write them, policy or not (migration 0038).
 */
const SYSTEM_ONLY_TABLES = [
  'billing_events',
  'email_change_tokens',
  'email_confirmation_tokens',
  'failure_counters',
  'login_challenges',
  'password_reset_tokens',
  'prevention_alerts',
  'refresh_tokens',
  'totp_recovery_codes',
  'trusted_devices',
  'user_totp',
];

/** Catalogues the same for every organization: the tenant role reads every row and writes none. */
const CATALOGUE_TABLES = ['billing_plans', 'guarantees'];

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  // The demo's organizations, fleets, claims, periods, alerts and surveys: rows in most tables.
  await seedDemoIfEmpty(t.database.db, 'Demo1234!');
});
afterAll(() => t.close());

type TableRow = { table: string; rls: boolean; forced: boolean; appSelect: boolean; appWrite: boolean };

async function tables(): Promise<TableRow[]> {
  const result = await t.seed((tx) =>
    tx.execute(sql`
      select c.relname as "table", c.relrowsecurity as rls, c.relforcerowsecurity as forced,
             has_table_privilege('flotte_app', c.oid, 'SELECT') as "appSelect",
             has_table_privilege('flotte_app', c.oid, 'INSERT') or has_table_privilege('flotte_app', c.oid, 'UPDATE')
               or has_table_privilege('flotte_app', c.oid, 'DELETE') as "appWrite"
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      order by c.relname`),
  );
  return (result as unknown as { rows: TableRow[] }).rows;
}

describe('every table is an organization’s data under forced row-level security, or a named directory table', () => {
  it('has no table without row-level security beyond the directory tables', async () => {
    const unprotected = (await tables()).filter((row) => !(row.rls && row.forced)).map((row) => row.table);
    expect(unprotected.filter((table) => !(table in DIRECTORY_TABLES))).toEqual([]);
  });

  it('lets no role change or remove an activity log entry once written (decision 041)', async () => {
    const result = await t.seed((tx) =>
      tx.execute(sql`
        select r.role, has_table_privilege(r.role, 'audit_log', 'SELECT') as "select", has_table_privilege(r.role, 'audit_log', 'INSERT') as "insert",
               has_table_privilege(r.role, 'audit_log', 'UPDATE') as "update", has_table_privilege(r.role, 'audit_log', 'DELETE') as "delete",
               has_table_privilege(r.role, 'audit_log', 'TRUNCATE') as "truncate"
        from (values ('flotte_app'), ('flotte_system')) as r(role) order by r.role`),
    );
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([
      { role: 'flotte_app', select: true, insert: true, update: false, delete: false, truncate: false },
      { role: 'flotte_system', select: true, insert: true, update: false, delete: false, truncate: false },
    ]);
    const rows = await tables();
    expect(rows.find((r) => r.table === 'audit_log')).toMatchObject({ rls: true, forced: true });
  });

  it('gives every table under row-level security a policy, and the tenant role only reads the catalogues', async () => {
    const result = await t.seed((tx) =>
      tx.execute(sql`
        select c.relname as "table", array_agg(p.polname::text order by p.polname) filter (where p.polname is not null) as policies
        from pg_class c join pg_namespace n on n.oid = c.relnamespace left join pg_policy p on p.polrelid = c.oid
        where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relrowsecurity
        group by c.relname order by c.relname`),
    );
    const rows = (result as unknown as { rows: { table: string; policies: string[] | null }[] }).rows;
    expect(rows.filter((row) => !row.policies?.length).map((row) => row.table)).toEqual([]);
    const policies = new Map(rows.map((row) => [row.table, row.policies]));
    for (const name of SYSTEM_ONLY_TABLES.filter((table) => table !== 'billing_events')) expect(policies.get(name), name).toEqual(['system_access']);
    const all = await tables();
    for (const name of CATALOGUE_TABLES) {
      expect(policies.get(name), name).toEqual(['catalogue_read', 'system_access']);
      expect(all.find((r) => r.table === name), name).toMatchObject({ rls: true, forced: true, appSelect: true, appWrite: false });
    }
  });

  it('shows the tenant role no organization’s row when no organization is set', async () => {
    const readable = (await tables()).filter((row) => row.appSelect && !(row.table in DIRECTORY_TABLES) && !CATALOGUE_TABLES.includes(row.table));
    expect(readable.length).toBeGreaterThan(20);
    const counts = await t.seed(async (tx) => {
      const seen: Record<string, number> = {};
      await tx.execute(sql`select set_config('role', 'flotte_app', true), set_config('app.org_id', '', true)`);
      for (const { table } of readable) {
        const result = await tx.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`);
        seen[table] = (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
      }
      await tx.execute(sql`reset role`);
      return seen;
    });
    expect(Object.entries(counts).filter(([, n]) => n > 0)).toEqual([]);
  });

  it('runs requests as roles that are not superuser, cannot bypass row-level security and own nothing; views see as their caller', async () => {
    const result = await t.seed((tx) =>
      tx.execute(sql`
        select r.rolname as role, r.rolsuper as super, r.rolbypassrls as "bypassRls", r.rolcanlogin as "canLogin",
               (select count(*)::int from pg_class c where c.relowner = r.oid) as owned
        from pg_roles r where r.rolname in ('flotte_app', 'flotte_system') order by r.rolname`),
    );
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([
      { role: 'flotte_app', super: false, bypassRls: false, canLogin: false, owned: 0 },
      { role: 'flotte_system', super: false, bypassRls: false, canLogin: false, owned: 0 },
    ]);
    // A view runs with its owner's rights unless it says security_invoker: none may read past the policies.
    const views = await t.seed((tx) =>
      tx.execute(sql`
        select c.relname as view, coalesce('security_invoker=true' = any(c.reloptions), false) or coalesce('security_invoker=on' = any(c.reloptions), false) as invoker
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('v', 'm')`),
    );
    expect((views as unknown as { rows: { view: string; invoker: boolean }[] }).rows.filter((row) => !row.invoker)).toEqual([]);
  });

  it('gives the tenant role no privilege on the system-only tables', async () => {
    const rows = await tables();
    for (const name of SYSTEM_ONLY_TABLES) {
      const row = rows.find((r) => r.table === name);
      expect(row, name).toBeDefined();
      expect(row, name).toMatchObject({ appSelect: false, appWrite: false });
    }
  });
});
