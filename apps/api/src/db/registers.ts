import { COUNT_CAP } from '@flotte/contract';
import { and, count, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Tx } from './scope.js';
import { registerCounts } from './schema/sinisters.js';

/** What the archive filter of every register means (SPEC 4): active by default. */
export function archiveCondition(archivedAt: PgColumn, query: { withArchived?: boolean; onlyArchived?: boolean }): SQL | undefined {
  if (query.onlyArchived) return isNotNull(archivedAt);
  if (query.withArchived) return undefined;
  return isNull(archivedAt);
}

/**
 * Maps `sortBy` ('name' or '-name', already checked against the allow-list) to ORDER BY, uuid last
 * for a stable page. With a search, the sort key is wrapped so that PostgreSQL cannot walk the sort
 * index filtering row by row (a rare term far down that order means scanning most of the register):
 * it fetches the matches through the trigram index and sorts them instead.
 */
export function orderBy<K extends string>(
  sortBy: string | undefined,
  columns: Record<K, SQL | PgColumn | (SQL | PgColumn)[]>,
  fallback: `${K}` | `-${K}`,
  tieBreaker: PgColumn,
  options: { searching?: boolean } = {},
): SQL[] {
  const key = sortBy ?? fallback;
  const descending = key.startsWith('-');
  const column = columns[(descending ? key.slice(1) : key) as K];
  // A column may bring its own next keys (surname, then first name) before the uuid.
  const keys = [...(Array.isArray(column) ? column : [column]), tieBreaker];
  return keys.map((k, i) => {
    const sortKey = options.searching && i === 0 ? sql`coalesce(${k}, ${k})` : k;
    return descending ? desc(sortKey) : sql`${sortKey} asc`;
  });
}

/** Active / archived counts of one register, kept by triggers (migration 0004). */
export async function readCounts(tx: Tx, organizationUuid: string, register: 'drivers' | 'vehicules' | 'sinisters') {
  const [row] = await tx
    .select({ active: registerCounts.active, archived: registerCounts.archived })
    .from(registerCounts)
    .where(and(eq(registerCounts.organizationUuid, organizationUuid), eq(registerCounts.register, register)));
  return { nbInActivity: Number(row?.active ?? 0), nbOfArchived: Number(row?.archived ?? 0) };
}

/**
 * One page of a register: the rows, the maintained counts and the total, fetched side by side.
 * Without a search or filter the total is the maintained count (no count(*) over the register);
 * with one, rows are counted up to COUNT_CAP (an exact count of a million claims costs seconds).
 */
export async function registerPage<Row>(
  tx: Tx,
  organizationUuid: string,
  register: 'drivers' | 'vehicules' | 'sinisters',
  query: { withArchived?: boolean; onlyArchived?: boolean },
  parts: { rows: Promise<Row[]>; filtered: boolean; matching: (tx: Tx) => PgSelect },
) {
  const [rows, counts, filteredTotal] = await Promise.all([
    parts.rows,
    readCounts(tx, organizationUuid, register),
    parts.filtered ? countCapped(tx, parts.matching(tx)) : Promise.resolve(null),
  ]);
  if (filteredTotal !== null) {
    return { rows, total: Math.min(filteredTotal, COUNT_CAP), totalIsCapped: filteredTotal > COUNT_CAP, counts };
  }
  const total = query.onlyArchived ? counts.nbOfArchived : query.withArchived ? counts.nbInActivity + counts.nbOfArchived : counts.nbInActivity;
  return { rows, total, totalIsCapped: false, counts };
}

async function countCapped(tx: Tx, matching: PgSelect): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(matching.limit(COUNT_CAP + 1).as('matching'));
  return row?.n ?? 0;
}
