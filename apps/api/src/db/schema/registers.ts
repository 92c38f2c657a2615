import { type SQL, sql } from 'drizzle-orm';
import { bigint, check, index, type IndexBuilder, type IndexBuilderOn, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

/**
 * Every register of an organization: a tenant table whose writes keep a count and a version in
 * register_counts (migration helper `flotte_register_table`, docs/adding-a-register.md). The one
 * list of their names: the schema's check below, the triggers (which write these names) and the
 * list kit (db/list-kit.ts) all take it from here.
 */
export const REGISTERS = ['drivers', 'vehicules', 'sinisters'] as const;
export type Register = (typeof REGISTERS)[number];

/** The columns a register's table starts with: its key and the organization its row belongs to. */
export function registerKeyColumns() {
  return {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
  };
}

/** The columns a register's table ends with: archived (a soft delete, SPEC 4), created and updated. */
export function registerTimeColumns() {
  return {
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  };
}

type IndexedColumn = Parameters<IndexBuilderOn['on']>[0];

/**
 * A register's indexes: for every offered sort key its (organization, key…, uuid) b-tree, named
 * `<table>_org_<name>_idx` (FACTS.md: an unindexed sort is a scan of the table), and the trigram
 * index of its folded search text.
 */
export function registerIndexes(
  table: string,
  t: { organizationUuid: IndexedColumn; uuid: IndexedColumn; searchText: IndexedColumn },
  sortKeys: Record<string, IndexedColumn | IndexedColumn[]>,
): IndexBuilder[] {
  return [
    ...Object.entries(sortKeys).map(([name, key]) => index(`${table}_org_${name}_idx`).on(t.organizationUuid, ...(Array.isArray(key) ? key : [key]), t.uuid)),
    index(`${table}_search_trgm_idx`).using('gin', sql`${t.searchText as SQL} gin_trgm_ops`),
  ];
}

/** Active and archived counts per organization, kept by triggers (no count(*) on every list). */
export const registerCounts = pgTable(
  'register_counts',
  {
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    register: text({ enum: REGISTERS }).notNull(),
    active: bigint({ mode: 'number' }).notNull().default(0),
    archived: bigint({ mode: 'number' }).notNull().default(0),
    /** Moved by every write to the register, only ever up (migration 0008): a list read at one version is still true at it. */
    version: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.organizationUuid, t.register] }),
    // A trigger writing a name outside REGISTERS fails its write instead of keeping a count nobody reads.
    check('register_counts_register_check', sql`${t.register} in (${sql.raw(REGISTERS.map((r) => `'${r}'`).join(', '))})`),
  ],
);
