import { COUNT_CAP } from '@flotte/contract';
import { inArray, isNotNull, isNull, type SQL, sql, type Subquery } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Tx } from './scope.js';
import { registerCounts } from './schema/sinisters.js';
import { prepared } from './statements.js';

export type Register = 'drivers' | 'vehicules' | 'sinisters';

/** The archive filter of every register (SPEC 4): active rows by default. */
export type ArchiveMode = 'active' | 'with' | 'only';

export function archiveModeOf(query: { withArchived?: boolean; onlyArchived?: boolean }): ArchiveMode {
  if (query.onlyArchived) return 'only';
  return query.withArchived ? 'with' : 'active';
}

export function archiveCondition(archivedAt: PgColumn, mode: ArchiveMode): SQL | undefined {
  if (mode === 'only') return isNotNull(archivedAt);
  if (mode === 'with') return undefined;
  return isNull(archivedAt);
}

type SortKey = SQL | PgColumn;

/**
 * Maps `sortBy` ('name' or '-name', already checked against the allow-list) to its keys, uuid
 * last for a stable page; a column may bring its own next keys (surname, then first name).
 */
export function sortKeys<K extends string>(
  sortBy: string | undefined,
  columns: Record<K, SortKey | SortKey[]>,
  fallback: `${K}` | `-${K}`,
  tieBreaker: PgColumn,
): { keys: SortKey[]; descending: boolean } {
  const key = sortBy ?? fallback;
  const descending = key.startsWith('-');
  const column = columns[(descending ? key.slice(1) : key) as K];
  return { keys: [...(Array.isArray(column) ? column : [column]), tieBreaker], descending };
}

/** Values every page statement takes as placeholders (the rest of its SQL is its shape). */
export const pagePlaceholders = {
  organization: sql.placeholder('organization'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
};

/** A one-row source for statements made of scalar subqueries. */
const oneRow = sql`(values (1)) as one_row (x)`;

/**
 * The version of what a list shows: the versions of every register it shows (a claim shows its
 * vehicle's plate and its driver's name), in a fixed order, as text. Each only grows (migration
 * 0008), so the text changes with any write to one of them and never comes back.
 */
function versionOf(organization: SQL, shown: readonly Register[]): SQL<string> {
  return sql<string>`select coalesce(string_agg(${registerCounts.version}::text, ',' order by ${registerCounts.register}), '') from ${registerCounts} where ${registerCounts.organizationUuid} = ${organization} and ${inArray(registerCounts.register, [...shown])}`;
}

/** The version and maintained counts of a register for the organization, as a one-row table. */
function registerState(tx: Tx, register: Register, shown: readonly Register[]) {
  const organization = sql`${pagePlaceholders.organization}::uuid`;
  const count = (column: PgColumn) =>
    sql<number>`coalesce((select ${column} from ${registerCounts} where ${registerCounts.organizationUuid} = ${organization} and ${registerCounts.register} = ${register}), 0)`.mapWith(
      Number,
    );
  return tx
    .select({
      version: sql<string>`(${versionOf(organization, shown)})`.as('list_version'),
      active: count(registerCounts.active).as('list_active'),
      archived: count(registerCounts.archived).as('list_archived'),
    })
    .from(oneRow)
    .as('list_state');
}

/**
 * The rows matching a filter, counted up to COUNT_CAP + 1 (an exact count of a million claims
 * costs seconds); NULL for an unfiltered list, whose total the maintained counts give.
 */
function cappedCount(tx: Tx, table: PgTable, where: SQL | undefined, filtered: boolean) {
  if (!filtered) return tx.select({ matched: sql<number | null>`null::bigint`.mapWith(Number).as('list_matched') }).from(oneRow).as('list_count');
  return tx
    .select({ matched: sql<number | null>`count(*)`.mapWith(Number).as('list_matched') })
    .from(
      tx
        .select({ matching: sql`1`.as('list_matching_row') })
        .from(table)
        .where(where)
        .limit(COUNT_CAP + 1)
        .as('list_matching'),
    )
    .as('list_count');
}

/**
 * ORDER BY of a page. With a search, the first key is wrapped so that PostgreSQL cannot walk the
 * sort index filtering row by row (a rare term far down that order means scanning most of the
 * register): it fetches the matches through the trigram index and sorts them instead.
 */
export function pageOrder(order: { keys: SortKey[]; descending: boolean }, searching: boolean): SQL[] {
  return order.keys.map((key, i) => {
    const expression = searching && i === 0 ? sql`coalesce(${key}, ${key})` : sql`${key}`;
    return order.descending ? sql`${expression} desc` : sql`${expression} asc`;
  });
}

/**
 * The sort keys as columns of the page subquery (list_sort0…), so that the outer query keeps its
 * order. Typed as a bare object: they are for pageStatement, not part of the row.
 */
export function sortColumns(order: { keys: SortKey[] }): object {
  return Object.fromEntries(order.keys.map((key, i) => [`list_sort${i}`, sql`${key}`.as(`list_sort${i}`)]));
}

/**
 * The version of the registers a list shows, alone: what a copy of a page is checked against
 * (decision 007). A named statement of one primary-key range.
 */
export async function readVersion(tx: Tx, organizationUuid: string, shown: readonly Register[]): Promise<string> {
  const statement = prepared(tx, 'register_version', { shown: shown.join(',') }, () =>
    tx
      .select({ version: sql<string>`(${versionOf(sql`${pagePlaceholders.organization}::uuid`, shown)})` })
      .from(oneRow),
  );
  const [row] = await statement.execute({ organization: organizationUuid });
  return row?.version ?? '';
}

/**
 * One page of a register in ONE statement: the version, the maintained counts, the filtered total
 * (only counted for a filtered list) and the page's columns, one result row per register row in
 * the page's order (a single row of nulls but the state when the page is empty).
 */
export function pageStatement<TPage extends Subquery<string, Record<string, unknown>>, TFields extends SelectedFields>(
  tx: Tx,
  spec: {
    register: Register;
    /** Every register the list shows (a claim shows its vehicle's plate and its driver's name). */
    shown?: readonly Register[];
    table: PgTable;
    where: SQL | undefined;
    filtered: boolean;
    /** The register's page subquery (`.as('list_page')`), selecting sortColumns(order) besides its fields. */
    page: TPage;
    /** The page's columns as the result shows them, taken from `page`. */
    fields: TFields;
    order: { keys: SortKey[]; descending: boolean };
  },
) {
  const state = registerState(tx, spec.register, spec.shown ?? [spec.register]);
  const count = cappedCount(tx, spec.table, spec.where, spec.filtered);
  const sortColumn = (i: number) => (spec.page as unknown as Record<string, SQL.Aliased>)[`list_sort${i}`]!;
  return tx
    .select({ version: state.version, active: state.active, archived: state.archived, matched: count.matched, ...spec.fields })
    .from(state)
    .leftJoinLateral(count, sql`true`)
    // (leftJoinLateral's constraint cannot be checked against a type parameter.)
    .leftJoinLateral(spec.page as unknown as Subquery<'list_page', Record<string, unknown>>, sql`true`)
    .orderBy(...spec.order.keys.map((_, i) => (spec.order.descending ? sql`${sortColumn(i)} desc` : sql`${sortColumn(i)} asc`)));
}

export type PageResult<Row> = {
  /** The version of the registers shown, read in the same snapshot as the rows. */
  version: string;
  rows: Row[];
  total: number;
  totalIsCapped: boolean;
  counts: { nbInActivity: number; nbOfArchived: number };
};

type StateColumns = { version: string | null; active: number | null; archived: number | null; matched: number | null };

/**
 * Reads what a page statement returned (`toRow` gives null for the row of nulls of an empty page).
 * A filtered list comes with its capped count; an unfiltered one takes its total from the counts.
 */
export function pageResult<R extends StateColumns, Row>(result: R[], archive: ArchiveMode, toRow: (row: R) => Row | null): PageResult<Row> {
  // The state is a one-row table the rest is left-joined to: there is always a first row.
  const first = result[0]!;
  const version = first.version ?? '';
  const rows = result.flatMap((r) => {
    const row = toRow(r);
    return row ? [row] : [];
  });
  const active = first.active ?? 0;
  const archived = first.archived ?? 0;
  const counts = { nbInActivity: active, nbOfArchived: archived };
  const { matched } = first;
  if (matched !== null) return { version, rows, total: Math.min(matched, COUNT_CAP), totalIsCapped: matched > COUNT_CAP, counts };
  const total = archive === 'only' ? archived : archive === 'with' ? active + archived : active;
  return { version, rows, total, totalIsCapped: false, counts };
}
