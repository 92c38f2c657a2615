import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

/**
 * Every register of an organization: a tenant table whose writes keep a count and a version in
 * register_counts (migration helper `flotte_register_table`, docs/adding-a-register.md). The one
 * list of their names: the schema's check below, the triggers (which write these names) and the
 * list kit (db/list-kit.ts) all take it from here.
 */
export const REGISTERS = ['drivers', 'vehicules', 'sinisters'] as const;
export type Register = (typeof REGISTERS)[number];

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
