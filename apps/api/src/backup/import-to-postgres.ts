import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_FOLDER, openPostgres, PGLITE_EXTENSIONS, SYSTEM_ROLE } from '../db/client.js';
import { describeError } from '../db/embedded.js';
import { ExplainedError } from '../lib/explained-error.js';
import type { ReadBackup } from './backups.js';

/**
 * Moves an embedded database to PostgreSQL (npm run import-backup, docs/operations.md): the backup
 * is unpacked into a temporary PGlite and brought to this version's migrations; the target, a new
 * database, gets the same migrations; then every table's rows are copied, in one transaction.
 *
 * - Row-level security: the target's tables FORCE it and only flotte_app / flotte_system have
 *   policies, so the copy runs as flotte_system (the owner alone would see and write no row).
 * - register_counts and its statement triggers: user triggers are disabled for the copy, so every
 *   table — the counts included — gets exactly the source's rows, nothing recomputed.
 * - Foreign keys stay enforced: tables are filled parents first; a cycle (users ↔ organization_users)
 *   is broken by inserting a nullable reference as NULL and setting it once every row is in.
 * - Values travel as JSON (to_jsonb → jsonb_populate_recordset): timestamps keep their microseconds,
 *   arrays and big integers their exact value. Generated columns are recomputed by the target.
 */

type Column = { name: string; nullable: boolean; identity: boolean };
type ForeignKey = { columns: string[]; references: string };
type Table = { name: string; columns: Column[]; primaryKey: string[]; foreignKeys: ForeignKey[] };

export type ImportReport = { tables: { name: string; rows: number }[] };

const q = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
const BATCH = 1000;

export async function describeTables(target: pg.Client): Promise<Table[]> {
  const tables = await target.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
  );
  const columns = await target.query<{ table: string; name: string; nullable: boolean; identity: boolean }>(
    `SELECT c.relname AS table, a.attname AS name, NOT a.attnotnull AS nullable, a.attidentity <> '' AS identity
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '' ORDER BY a.attnum`,
  );
  const constraints = await target.query<{ table: string; type: string; columns: string[]; references: string | null }>(
    `SELECT c.relname AS table, k.contype AS type, r.relname AS references,
            array(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY AS u(attnum, i)
                  JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.i)::text[] AS columns
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_class r ON r.oid = k.confrelid
     WHERE n.nspname = 'public' AND k.contype IN ('p', 'f')`,
  );
  return tables.rows.map(({ name }) => ({
    name,
    columns: columns.rows.filter((c) => c.table === name).map(({ name: column, nullable, identity }) => ({ name: column, nullable, identity })),
    primaryKey: constraints.rows.find((k) => k.table === name && k.type === 'p')?.columns ?? [],
    foreignKeys: constraints.rows
      .filter((k) => k.table === name && k.type === 'f')
      .map((k) => ({ columns: k.columns, references: k.references! })),
  }));
}

/** Parents before children; the nullable references that close a cycle are filled in afterwards. */
export function insertionPlan(tables: Table[]): { order: Table[]; deferred: Map<string, string[]> } {
  const remaining = new Map(tables.map((t) => [t.name, t]));
  const deferred = new Map<string, string[]>();
  const isDeferred = (table: string, fk: ForeignKey) => fk.columns.every((c) => deferred.get(table)?.includes(c));
  // A reference to the table itself blocks it too: its rows may come in any order.
  const blocking = (table: Table) => table.foreignKeys.filter((fk) => remaining.has(fk.references) && !isDeferred(table.name, fk));
  const order: Table[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining.values()].filter((t) => blocking(t).length === 0);
    if (ready.length > 0) {
      for (const table of ready) {
        order.push(table);
        remaining.delete(table.name);
      }
      continue;
    }
    // A cycle (or a table referencing itself): defer one reference whose columns may be NULL, and
    // one that closes the cycle — not a nullable reference of a table merely waiting behind it,
    // whose NULL a check constraint may refuse (organization_alerts' written alert).
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
      if (from === to) return true;
      if (seen.has(from)) return false;
      seen.add(from);
      const table = remaining.get(from);
      return table ? blocking(table).some((fk) => reaches(fk.references, to, seen)) : false;
    };
    const candidate = [...remaining.values()]
      .flatMap((t) => blocking(t).map((fk) => ({ table: t, fk })))
      .find(({ table, fk }) => reaches(fk.references, table.name) && fk.columns.every((c) => table.columns.find((col) => col.name === c)?.nullable));
    if (!candidate) throw new Error(`cycle de clés étrangères obligatoires entre ${[...remaining.keys()].join(', ')}`);
    deferred.set(candidate.table.name, [...(deferred.get(candidate.table.name) ?? []), ...candidate.fk.columns]);
  }
  return { order, deferred };
}

/** Rows of a source table, JSON text per row, a batch at a time (a cursor: memory stays flat). */
async function forEachBatch(source: PGlite, table: string, fn: (rowsJson: string, count: number) => Promise<void>): Promise<number> {
  let total = 0;
  await source.transaction(async (tx) => {
    await tx.query(`DECLARE import_rows NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text AS row FROM public.${q(table)} t`);
    for (;;) {
      const { rows } = await tx.query<{ row: string }>(`FETCH ${BATCH} FROM import_rows`);
      if (rows.length === 0) break;
      await fn(`[${rows.map((r) => r.row).join(',')}]`, rows.length);
      total += rows.length;
    }
    await tx.query('CLOSE import_rows');
  });
  return total;
}

/** Refuses a target that already holds users or organizations (read as flotte_system: row-level security). */
async function assertNoData(target: pg.Client): Promise<void> {
  const existing = await target.query<{ users: number; organizations: number }>(
    'SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM organizations)::int AS organizations',
  );
  const { users, organizations } = existing.rows[0]!;
  if (users > 0 || organizations > 0) {
    throw new ExplainedError(
      `La base cible contient déjà des données (${users} utilisateur(s), ${organizations} organisation(s)) : l'import ne se fait que dans une base neuve. Rien n'a été modifié.`,
    );
  }
}

/** Before the long part (unpacking, migrations): a target already migrated and filled is refused at once. */
async function checkTargetFirst(databaseUrl: string): Promise<void> {
  const target = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await target.connect();
  } catch (error) {
    throw new ExplainedError(`Connexion à la base cible impossible (DATABASE_URL) : ${describeError(error)}`);
  }
  try {
    const { rows } = await target.query<{ migrated: boolean }>(`SELECT to_regclass('public.users') IS NOT NULL AND to_regclass('public.organizations') IS NOT NULL AS migrated`);
    if (!rows[0]?.migrated) return;
    await target.query('BEGIN');
    try {
      await target.query(`SET LOCAL ROLE ${SYSTEM_ROLE}`);
      await assertNoData(target);
    } finally {
      await target.query('ROLLBACK');
    }
  } finally {
    await target.end();
  }
}

async function copyTables(source: PGlite, target: pg.Client): Promise<ImportReport> {
  // Same text for timestamps on both sides; the offsets keep them exact anyway.
  await source.exec(`SET TimeZone = 'UTC'`);
  await target.query(`SET TimeZone = 'UTC'`);
  const tables = await describeTables(target);
  const sourceTables = (
    await source.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    )
  ).rows.map((r) => r.name);
  const missing = sourceTables.filter((name) => !tables.some((t) => t.name === name));
  if (missing.length > 0) throw new Error(`tables absentes de la base cible : ${missing.join(', ')}`);
  const { order, deferred } = insertionPlan(tables.filter((t) => sourceTables.includes(t.name)));

  await target.query('BEGIN');
  try {
    // As the owner (the role that ran the migrations): the counts triggers stay quiet during the copy.
    for (const table of order) await target.query(`ALTER TABLE public.${q(table.name)} DISABLE TRIGGER USER`);
    await target.query(`SET LOCAL ROLE ${SYSTEM_ROLE}`);

    await assertNoData(target);
    // Rows the migrations themselves inserted (the guarantees) give way to the source's, uuids
    // included. Only where there are some: a table written once (the activity log, decision 041)
    // grants no DELETE to flotte_system, and a new database holds none of its rows.
    for (const table of [...order].reverse()) {
      const { rows } = await target.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM public.${q(table.name)}) AS any`);
      if (rows[0]?.any) await target.query(`DELETE FROM public.${q(table.name)}`);
    }

    const report: ImportReport = { tables: [] };
    for (const table of order) {
      const later = deferred.get(table.name) ?? [];
      const names = table.columns.map((c) => q(c.name)).join(', ');
      const values = table.columns.map((c) => (later.includes(c.name) ? 'NULL' : `s.${q(c.name)}`)).join(', ');
      const overriding = table.columns.some((c) => c.identity) ? ' OVERRIDING SYSTEM VALUE' : '';
      const insert = `INSERT INTO public.${q(table.name)} (${names})${overriding} SELECT ${values} FROM jsonb_populate_recordset(NULL::public.${q(table.name)}, $1::jsonb) s`;
      const rows = await forEachBatch(source, table.name, async (json) => {
        await target.query(insert, [json]);
      });
      report.tables.push({ name: table.name, rows });
    }
    for (const [tableName, columns] of deferred) {
      const table = tables.find((t) => t.name === tableName)!;
      if (table.primaryKey.length === 0) throw new Error(`${tableName} : pas de clé primaire pour compléter ${columns.join(', ')}`);
      const set = columns.map((c) => `${q(c)} = s.${q(c)}`).join(', ');
      const match = table.primaryKey.map((c) => `t.${q(c)} = s.${q(c)}`).join(' AND ');
      await forEachBatch(source, tableName, async (json) => {
        await target.query(`UPDATE public.${q(tableName)} t SET ${set} FROM jsonb_populate_recordset(NULL::public.${q(tableName)}, $1::jsonb) s WHERE ${match}`, [json]);
      });
    }

    // Sequences (serial / identity columns, none today) continue after the copied values. The
    // maximum is read as flotte_system (row-level security), setval needs the owner.
    const sequences = await target.query<{ sequence: string; table: string; column: string }>(
      `SELECT s.relname AS sequence, t.relname AS table, a.attname AS column
       FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_class t ON t.oid = d.refobjid JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
       WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i') AND n.nspname = 'public'`,
    );
    const maxima: { sequence: string; max: string | null }[] = [];
    for (const s of sequences.rows) {
      const { rows } = await target.query<{ max: string | null }>(`SELECT max(${q(s.column)})::text AS max FROM public.${q(s.table)}`);
      maxima.push({ sequence: s.sequence, max: rows[0]?.max ?? null });
    }
    await target.query('RESET ROLE');
    for (const { sequence, max } of maxima) {
      if (max !== null) await target.query(`SELECT setval($1::regclass, $2::bigint)`, [`public.${q(sequence)}`, max]);
    }
    for (const table of order) await target.query(`ALTER TABLE public.${q(table.name)} ENABLE TRIGGER USER`);
    await target.query('COMMIT');
    return report;
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Row counts of every copied table on the target, read as flotte_system (row-level security). */
async function targetCounts(target: pg.Client, tables: string[]): Promise<Map<string, number>> {
  await target.query('BEGIN');
  try {
    await target.query(`SET LOCAL ROLE ${SYSTEM_ROLE}`);
    const counts = new Map<string, number>();
    for (const table of tables) {
      const { rows } = await target.query<{ n: number }>(`SELECT count(*)::int AS n FROM public.${q(table)}`);
      counts.set(table, rows[0]!.n);
    }
    return counts;
  } finally {
    await target.query('COMMIT');
  }
}

export async function importBackupIntoPostgres(backup: ReadBackup, databaseUrl: string): Promise<ImportReport> {
  await checkTargetFirst(databaseUrl);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'flotte-import-'));
  try {
    let source: PGlite;
    try {
      source = await PGlite.create({
        dataDir: path.join(scratch, 'pglite'),
        loadDataDir: new Blob([backup.pgdataTar as Uint8Array<ArrayBuffer>]),
        extensions: PGLITE_EXTENSIONS,
      });
    } catch (error) {
      throw new ExplainedError(`La sauvegarde ${backup.file} ne s'ouvre pas (${describeError(error)}). Rien n'a été importé.`);
    }
    try {
      // The backup may predate this version: its temporary copy gets the migrations first, so both
      // sides have the same tables and columns. The backup file itself is never changed.
      await migratePglite(drizzlePglite(source), { migrationsFolder: MIGRATIONS_FOLDER });
      try {
        await (await openPostgres(databaseUrl, { max: 1 })).close();
      } catch (error) {
        throw new ExplainedError(`La base cible ne peut pas recevoir les migrations de FlotteAssur : ${describeError(error)}\nVoir README.md, « Déployer sur un serveur PostgreSQL ».`);
      }
      const target = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
      await target.connect();
      try {
        let report: ImportReport;
        try {
          report = await copyTables(source, target);
        } catch (error) {
          if (error instanceof ExplainedError) throw error;
          throw new ExplainedError(`L'import a échoué et a été annulé (une seule transaction : la base cible est restée vide) : ${describeError(error)}`);
        }
        const counts = await targetCounts(target, report.tables.map((t) => t.name));
        const wrong = report.tables.filter((t) => counts.get(t.name) !== t.rows);
        if (wrong.length > 0) {
          throw new ExplainedError(`Après l'import, le nombre de lignes diffère pour : ${wrong.map((t) => `${t.name} (${t.rows} attendues, ${counts.get(t.name)} trouvées)`).join(', ')}.`);
        }
        return report;
      } finally {
        await target.end();
      }
    } finally {
      await source.close();
    }
  } finally {
    // A temporary copy of the backup: the backup file itself stays.
    rmSync(scratch, { recursive: true, force: true });
  }
}
