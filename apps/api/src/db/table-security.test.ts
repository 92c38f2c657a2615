import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/**
 * Every table of the public schema is one of two kinds (decision 002): an organization's data,
 * under forced row-level security (list-kit.test checks those holding organization_uuid), or a
 * directory table of the platform, named here with the reason it has none. A table added without
 * row-level security fails this test until it is placed in one list or the other.
 */
const DIRECTORY_TABLES: Record<string, string> = {
  users: 'people, before any organization: read by sign-in and by every member list',
  organizations: 'the tenants themselves',
  environments: 'the brokers’ spaces above organizations',
  environment_users: 'superadmins attached to an environment',
  environment_tiers: 'an environment’s price tiers',
  guarantees: 'a shared catalogue, read-only for the tenant role',
  prevention_alerts: 'alerts a broker writes for its environment’s organizations, system scope only (each organization sees its copies in organization_alerts)',
  refresh_tokens: 'a user’s sessions, system scope only',
  password_reset_tokens: 'a user’s recovery links, system scope only',
  email_change_tokens: 'a user’s e-mail change links, system scope only',
  email_confirmation_tokens: 'a new account’s confirmation links, system scope only',
  user_totp: 'a user’s two-factor key (encrypted), system scope only',
  totp_recovery_codes: 'a user’s recovery codes (HMAC), system scope only',
  login_challenges: 'the login’s second steps, system scope only',
  trusted_devices: 'browsers a user asked to remember, system scope only',
  failure_counters: 'login failure counts keyed by hashes, before any organization is known',
  billing_plans: 'the platform’s catalogue of plans, read-only for the tenant role',
};

/**
 * Tables holding secrets (token hashes, counters) or system-only records (the billing provider's
 * event ids, under row-level security too): the tenant role gets no privilege on them at all, so a
 * tenant-scoped query can never read or write them, policy or not.
 */
const SYSTEM_ONLY_TABLES = ['billing_events', 'email_change_tokens', 'email_confirmation_tokens', 'failure_counters', 'login_challenges', 'password_reset_tokens', 'refresh_tokens', 'totp_recovery_codes', 'trusted_devices', 'user_totp'];

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
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

  it('gives the tenant role no privilege on the system-only tables', async () => {
    const rows = await tables();
    for (const name of SYSTEM_ONLY_TABLES) {
      const row = rows.find((r) => r.table === name);
      expect(row, name).toBeDefined();
      expect(row, name).toMatchObject({ appSelect: false, appWrite: false });
    }
  });
});
