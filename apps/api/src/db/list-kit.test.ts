import { eq, getTableName, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { createDrivers, createOrganization } from '../seed/factories.js';
import { declaredLists, defineList, explainStatement, type List, type ListQuery, readPage, tablesRead } from './list-kit.js';
import { toDriver } from '../modules/drivers/drivers.service.js';
import { driverList } from '../modules/drivers/drivers.repository.js';
import { toSinister } from '../modules/sinisters/sinisters.service.js';
import { sinisterList } from '../modules/sinisters/sinisters.repository.js';
import { toVehicule } from '../modules/vehicules/vehicules.service.js';
import { vehiculeList } from '../modules/vehicules/vehicules.repository.js';
import { type ReadTx, readTenant, withTenant } from './scope.js';
import { SEVERAL_SKIPS } from './scoped-reads.js';
import { ListDriversQuerySchema } from '@flotte/contract';
import { drivers } from './schema/drivers.js';
import { reports } from './schema/reports.js';
import { REGISTERS } from './schema/registers.js';

/**
 * The kit's promises about every list it runs (docs/adding-a-register.md): a list's table keeps
 * its register's version on every write, and a list reads no other register than those it says it
 * shows — otherwise a write there would leave its held pages stale (decision 007).
 */

let t: TestContext;
beforeAll(async () => {
  // The app imports every module, so every list is declared by now.
  t = await createTestApp();
});
afterAll(() => t.close());

type Trigger = { name: string; args: string[] };

async function triggersOf(table: string): Promise<Trigger[]> {
  const rows = await t.seed(async (tx) =>
    tx.execute(
      sql`select tgname as name, encode(tgargs, 'escape') as args from pg_trigger where tgrelid = ${table}::regclass and not tgisinternal and tgfoid = 'register_counts_apply'::regproc`,
    ),
  );
  return (rows as unknown as { rows: { name: string; args: string }[] }).rows.map((r) => ({ name: r.name, args: r.args.split('\\000').filter(Boolean) }));
}

/** What is wrong with a list's declaration, in words (empty when nothing is). */
async function problemsOf(list: List<ListQuery, unknown>, registerTables: Map<string, string>): Promise<string[]> {
  const problems: string[] = [];
  const table = getTableName(list.declaration.table);
  const triggers = await triggersOf(table);
  for (const event of ['insert', 'update', 'delete']) {
    const trigger = triggers.find((tr) => tr.name === `${table}_counts_${event}`);
    if (!trigger || trigger.args[0] !== list.declaration.register) problems.push(`${table}: no ${event} trigger keeping the version of ${list.declaration.register}`);
  }
  const read = await t.seed(async (tx) => tablesRead(list, tx as ReadTx));
  for (const name of read) {
    const register = registerTables.get(name);
    if (register && !list.shows.includes(register as (typeof REGISTERS)[number])) problems.push(`${list.name} reads ${name} but does not show ${register}`);
  }
  return problems;
}

function registerTablesOf(lists: readonly List<ListQuery, unknown>[]) {
  return new Map(lists.map((list) => [getTableName(list.declaration.table), list.declaration.register]));
}

describe('every declared list', () => {
  it('covers the three registers', () => {
    expect(new Set(declaredLists().map((list) => list.declaration.register))).toEqual(new Set(REGISTERS));
  });

  it('keeps its version with triggers on its table and shows every register it reads', async () => {
    const lists = declaredLists();
    const problems = (await Promise.all(lists.map((list) => problemsOf(list, registerTablesOf(lists))))).flat();
    expect(problems).toEqual([]);
  });

  it('sums the claims from their daily totals when those can apply every filter set, and from the claims otherwise', () => {
    const claims = declaredLists().find((list) => list.name === 'sinisters')!;
    const statement = (query: Record<string, string | undefined>) =>
      explainStatement(t.database.db as unknown as ReadTx, claims, '00000000-0000-4000-8000-000000000001', claims.declaration.query.parse(query) as ListQuery).text;
    for (const query of [{}, { startDate: '2026-01-01', endDate: '2026-11-27' }, { showDeclared: 'true', startDate: '2026-01-01' }, { showNotDeclared: 'true' }]) {
      expect(statement(query), JSON.stringify(query)).toContain('"claim_daily_totals"');
    }
    for (const query of [{ status: 'open', startDate: '2026-01-01' }, { search: 'B0042' }, { withArchived: 'true' }, { onlyArchived: 'true' }, { responsible: 'me' }, { driver: '00000000-0000-4000-8000-000000000002' }]) {
      expect(statement(query), JSON.stringify(query)).not.toContain('"claim_daily_totals"');
    }
  });

  it('says it when a list names a table without version triggers, or reads a register it does not show', async () => {
    const withoutTriggers = defineList({
      query: ListDriversQuerySchema,
      register: 'drivers',
      table: reports,
      key: reports.uuid,
      organization: reports.organizationUuid,
      columns: { uuid: reports.uuid },
      sort: { keys: { lastName: reports.title, firstName: reports.title, email: reports.title, phone: reports.title, createdAt: reports.createdAt }, default: 'lastName' },
    }) as unknown as List<ListQuery, unknown>;
    const claims = declaredLists().find((list) => list.name === 'sinisters')!;
    const hidingItsJoins = { ...claims, shows: ['sinisters'] } as List<ListQuery, unknown>;
    const lists = [...declaredLists().filter((list) => list !== withoutTriggers)];
    expect(await problemsOf(withoutTriggers, registerTablesOf(lists))).toEqual([
      'reports: no insert trigger keeping the version of drivers',
      'reports: no update trigger keeping the version of drivers',
      'reports: no delete trigger keeping the version of drivers',
    ]);
    expect((await problemsOf(hidingItsJoins, registerTablesOf(lists))).sort()).toEqual([
      'sinisters reads drivers but does not show drivers',
      'sinisters reads vehicules but does not show vehicules',
    ]);
  });
});

/**
 * Policies beside the tenant's and the system's, each for a reason written down: a survey's link
 * holder, signed out, reads and claims its own link and writes its own answers (decision 038); the
 * activity log's reads (tenant_isolation, system_access) are apart from its inserts, so that no
 * policy lets a role update or delete an entry (decision 041).
 */
const EXTRA_POLICIES: Record<string, string[]> = {
  // Its owner's, for audit_log_erase only (a person's erasure, migration 0040).
  audit_log: ['erasure', 'erasure_read', 'system_record', 'tenant_record'],
  survey_answers: ['survey_respondent_answer'],
  survey_recipients: ['survey_respondent_claim', 'survey_respondent_read'],
};

describe('row-level security on every table holding an organization’s data', () => {
  it('is enabled and forced, with the tenant and system policies', async () => {
    const rows = await t.seed(async (tx) =>
      tx.execute(sql`
        select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
               (select string_agg(polname, ',' order by polname) from pg_policy p where p.polrelid = c.oid) as policies
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organization_uuid' and not a.attisdropped)
        order by c.relname`),
    );
    const tables = (rows as unknown as { rows: { table: string; enabled: boolean; forced: boolean; policies: string }[] }).rows;
    expect(tables.map((r) => r.table)).toEqual(expect.arrayContaining(['drivers', 'organization_users', 'register_counts', 'reports', 'sinisters', 'vehicules']));
    for (const table of tables) {
      const policies = [...(EXTRA_POLICIES[table.table] ?? []), 'system_access', 'tenant_isolation'].sort().join(',');
      expect(table, table.table).toMatchObject({ enabled: true, forced: true, policies });
    }
  });
});

describe('reads and writes', () => {
  let organization: string;
  beforeAll(async () => {
    organization = await t.seed(async (tx) => {
      const org = await createOrganization(tx, { title: 'Lectures' });
      await createDrivers(tx, org.uuid, [{ lastName: 'Premier' }]);
      return org.uuid;
    });
  });
  const countDrivers = async (tx: ReadTx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(drivers))[0]!.n;

  it('computes a page of each register afresh in one statement, its rows’ files included (no snapshot, no second read)', async () => {
    const seen: string[] = [];
    const stop = t.database.statements.subscribe((timing) => {
      if (timing.organization === organization || timing.name === 'begin' || timing.name === 'commit') seen.push(timing.name);
    });
    try {
      for (const [list, toItem] of [[driverList, toDriver], [vehiculeList, toVehicule], [sinisterList, toSinister]] as const) {
        seen.length = 0;
        const page = await readPage(t.database.db, organization, list as never, list.declaration.query.parse({}) as ListQuery, toItem as never, { fresh: true });
        expect(page.data.every((item) => Array.isArray((item as { documents: unknown }).documents)), list.name).toBe(true);
        // The list's statement once, and no snapshot around it (PGlite also reports its scope's statements).
        expect(seen.filter((name) => new RegExp(`^${list.name}_list_\\d+$`).test(name)), list.name).toHaveLength(1);
        expect(seen, list.name).not.toContain('begin');
        if (t.database.kind === 'postgres') expect(seen, list.name).toHaveLength(1);
      }
    } finally {
      stop();
    }
  });

  it('a read cannot write, on either database', async () => {
    await expect(
      readTenant(t.database.db, organization, (tx) => tx.execute(sql`update drivers set last_name = 'Changé'`)),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/read-only transaction/) } });
    const names = await readTenant(t.database.db, organization, (tx) => tx.select({ lastName: drivers.lastName }).from(drivers));
    expect(names).toEqual([{ lastName: 'Premier' }]);
  });

  it('a read of one statement runs once; a read of several runs as one snapshot', async () => {
    let runs = 0;
    const one = await readTenant(t.database.db, organization, (tx) => {
      runs++;
      return countDrivers(tx);
    });
    expect([one, runs]).toEqual([1, 1]);
    const both = await readTenant(t.database.db, organization, async (tx) => [await countDrivers(tx), await countDrivers(tx)]);
    expect(both).toEqual([1, 1]);
  });

  // PostgreSQL: a read of one statement travels in one write with its scope (db/scoped-reads.ts).
  it.runIf(inject('testDb').kind === 'postgres')(
    'a read that went on to a second statement makes the next ones that begin alike start as a snapshot, and is forgotten once alone',
    async () => {
      const names: string[] = [];
      const stop = t.database.statements.subscribe((timing) => names.push(timing.sql.includes('n_apprentissage') ? 'first' : timing.name));
      try {
        const first = (tx: ReadTx) => tx.execute(sql`select count(*)::int as n_apprentissage from drivers`);
        const twoStatements = async (tx: ReadTx) => {
          await first(tx);
          return countDrivers(tx);
        };
        await readTenant(t.database.db, organization, twoStatements);
        // Sent alone first, then again in the snapshot.
        expect(names.filter((name) => name === 'first')).toHaveLength(2);
        names.length = 0;
        await readTenant(t.database.db, organization, twoStatements);
        // Now sent once, in the snapshot.
        expect(names.filter((name) => name === 'first')).toHaveLength(1);
        expect(names.filter((name) => name === 'begin')).toHaveLength(1);
        // That first statement alone: still sent to a snapshot until tried alone again, then forgotten.
        names.length = 0;
        for (let i = 0; i < SEVERAL_SKIPS; i++) await readTenant(t.database.db, organization, first);
        expect(names.filter((name) => name === 'begin')).toHaveLength(SEVERAL_SKIPS - 1);
        expect(names.filter((name) => name === 'first')).toHaveLength(SEVERAL_SKIPS);
        names.length = 0;
        await readTenant(t.database.db, organization, first);
        expect(names).toEqual(['first']);
      } finally {
        stop();
      }
    },
  );

  // PGlite runs one transaction at a time: nothing can commit between two statements of a read there.
  it.runIf(inject('testDb').kind === 'postgres')('a read of two statements does not see a write committed between them', async () => {
    let writes = 0;
    const seen = await readTenant(t.database.db, organization, async (tx) => {
      const before = await countDrivers(tx);
      // Another request's write, committed while this read is between its statements.
      writes++;
      await withTenant(t.database.db, organization, (w) => w.insert(drivers).values({ organizationUuid: organization, firstName: 'Entre', lastName: `Deux ${writes}` }));
      const after = await countDrivers(tx);
      return { before, after };
    });
    expect(seen.after).toBe(seen.before);
    // Committed all the same: the next read sees every write.
    expect(await readTenant(t.database.db, organization, countDrivers)).toBe(1 + writes);
    await withTenant(t.database.db, organization, (w) => w.delete(drivers).where(sql`${drivers.firstName} = 'Entre'`));
  });

  it('a write sees its own rows and commits them together', async () => {
    await expect(
      withTenant(t.database.db, organization, async (tx) => {
        await tx.insert(drivers).values({ organizationUuid: organization, firstName: 'Annulé', lastName: 'Ensemble' });
        expect(await countDrivers(tx)).toBe(2);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await readTenant(t.database.db, organization, (tx) => tx.select().from(drivers).where(eq(drivers.lastName, 'Ensemble')))).toEqual([]);
  });
});
