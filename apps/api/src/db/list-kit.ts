import { COUNT_CAP } from '@flotte/contract';
import { and, eq, getTableName, inArray, is, isNotNull, isNull, type Placeholder, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database } from './client.js';
import { readTenant, type ReadTx } from './scope.js';
import { type Register, registerCounts } from './schema/registers.js';
import { searchPatterns, searchTextMatches } from './search.js';
import { prepared } from './statements.js';
import { cachedPage } from '../lib/page-cache.js';
import { offsetOf, toPage } from '../lib/pagination.js';

/**
 * The list kit (docs/adding-a-register.md). A repository declares a list as data — its table,
 * its columns, sort keys, filters, search and the registers it shows — and this module runs it:
 * one named prepared statement per shape of the query (decision 006) reading the registers'
 * version, the maintained counts, the capped total and the page at once, and the page cache that
 * serves a page again while those registers have not moved (decision 007).
 */

/** The archive filter of every register (SPEC 4): active rows by default. */
export type ArchiveMode = 'active' | 'with' | 'only';

/** What every list query carries besides its filters (the contract's PaginatedSearchQuerySchema and sortBy). */
export type ListQuery = { page: number; limit: number; search?: string; sortBy?: string; withArchived?: boolean; onlyArchived?: boolean };

type SortKey = PgColumn | SQL;
type ColumnSource = PgColumn | SQL.Aliased;

/** A filter of a list: which query field sets it, and the SQL it adds. */
export type ListFilter<Q> =
  /** Set when the field has a value; the value is bound as a parameter (`value` in the SQL). */
  | { kind: 'value'; read?: (query: Q) => unknown; where: (value: SQL | Placeholder) => SQL | undefined }
  /** Set when the field is true; adds fixed SQL. */
  | { kind: 'toggle'; read?: (query: Q) => boolean | undefined; where: SQL }
  /** The field's value (or `read`'s) picks one of a few conditions: the statement's SQL depends on it. */
  | { kind: 'choice'; read?: (query: Q) => string | undefined; cases: Record<string, SQL | undefined> };

// A filter reads the query field of its name. One that reads several fields (the claims' declared
// state, from showDeclared and showNotDeclared) is written as the object, with its own `read`.

/** A filter set when its field has a value, bound as a parameter: `types: value((types) => …)`. */
export function value(where: (value: SQL | Placeholder) => SQL | undefined): ListFilter<unknown> {
  return { kind: 'value', where };
}

/** A filter set when its field is true: `hasHumanInjury: toggle(eq(…, true))`. */
export function toggle(where: SQL): ListFilter<unknown> {
  return { kind: 'toggle', where };
}

/** A filter whose condition depends on its field's value: `responsible: choice({ me: …, other: … })`. */
export function choice(cases: Record<string, SQL | undefined>): ListFilter<unknown> {
  return { kind: 'choice', cases };
}

type SortColumnOf<Q> = Q extends { sortBy?: infer S } ? Exclude<NonNullable<S>, `-${string}`> & string : never;

export type ListDeclaration<Q extends ListQuery, C extends Record<string, ColumnSource>> = {
  /** The contract's query schema of the list endpoint: the filters and sort keys below are typed by it. */
  query: z.ZodType<Q>;
  /** The register the list reads; its writes make a page stale. */
  register: Register;
  table: PgTable;
  /** The table's primary key: the page's tie-breaker, and how one record is found. */
  key: PgColumn;
  /** The column holding the organization (row-level security checks it too; the index starts with it). */
  organization: PgColumn;
  /** The columns the list returns, each once: table columns, or columns of `joins`. */
  columns: C;
  /** Left joins to the tables the joined columns come from (a claim's vehicle, driver, guarantee). */
  joins?: (select: PgSelect) => PgSelect;
  /** A condition every row of the list meets, whatever the query (a vehicle without a plate is a draft). */
  where?: SQL;
  /** `archived_at`: the query's withArchived / onlyArchived apply, and the counts come with the page. */
  archive?: PgColumn;
  /** Sortable keys: `sortBy` column → its indexed column(s), and the default when the query has none. */
  sort: { keys: Record<SortColumnOf<NoInfer<Q>>, SortKey | SortKey[]>; default: SortColumnOf<NoInfer<Q>> | `-${SortColumnOf<NoInfer<Q>>}` };
  /** Filters by query field name. */
  filters?: Record<string, ListFilter<NoInfer<Q>>>;
  /** The folded search column (search_text), and other spellings of a term to try (a plate without dashes). */
  search?: { column: PgColumn; alsoAs?: (term: string) => (string | null | undefined)[] };
  /** Other registers whose rows the list shows (a claim shows its vehicle's plate and its driver's name). */
  shows?: readonly Register[];
};

type ValueOf<S, TName extends string> =
  S extends PgColumn
    ? S['_']['tableName'] extends TName
      ? S['_']['notNull'] extends true
        ? S['_']['data']
        : S['_']['data'] | null
      : S['_']['data'] | null
    : S extends SQL.Aliased<infer D>
      ? D
      : never;

/** A row of a list: its columns' values; a joined table's columns may be null (left join). */
export type RowOf<C extends Record<string, ColumnSource>, TName extends string> = { [K in keyof C]: ValueOf<C[K], TName> };

export type List<Q extends ListQuery, Row, T extends PgTable = PgTable> = {
  readonly name: string;
  /** The register's table (db/records.ts writes it). */
  readonly table: T;
  readonly declaration: ListDeclaration<Q, Record<string, ColumnSource>>;
  /** Every register whose version the pages depend on, the list's own first. */
  readonly shows: readonly Register[];
  /** The name of the key among the columns: a page's row of nulls has it null. */
  readonly keyName: string;
  /** Phantom: the row type. */
  readonly row?: Row;
};

const declared: List<ListQuery, unknown>[] = [];

/** Every list declared so far (for the kit's own tests: every register has its triggers, every join is declared). */
export function declaredLists(): readonly List<ListQuery, unknown>[] {
  return declared;
}

/** Declares a list: the repository's one description of what it reads (docs/adding-a-register.md). */
export function defineList<Q extends ListQuery, const C extends Record<string, ColumnSource>, TTable extends PgTable>(
  declaration: ListDeclaration<Q, C> & { table: TTable },
): List<Q, RowOf<C, TTable['_']['name']>, TTable> {
  const shows = [declaration.register, ...(declaration.shows ?? []).filter((r) => r !== declaration.register)];
  const keyName = Object.keys(declaration.columns).find((name) => declaration.columns[name] === declaration.key);
  if (!keyName) throw new Error(`list ${declaration.register}: its key must be one of its columns`);
  const list = { name: declaration.register, table: declaration.table, declaration: declaration as unknown as List<Q, unknown>['declaration'], shows, keyName };
  declared.push(list as unknown as List<ListQuery, unknown>);
  return list;
}

export function archiveModeOf(query: { withArchived?: boolean; onlyArchived?: boolean }): ArchiveMode {
  if (query.onlyArchived) return 'only';
  return query.withArchived ? 'with' : 'active';
}

function archiveCondition(archivedAt: PgColumn | undefined, mode: ArchiveMode): SQL | undefined {
  if (!archivedAt || mode === 'with') return undefined;
  return mode === 'only' ? isNotNull(archivedAt) : isNull(archivedAt);
}

/** What a query sets: the search's spellings, and each set filter with its value or case. */
type Applied = { patterns: string[]; filters: { name: string; filter: ListFilter<never>; value: unknown }[] };

function applied<Q extends ListQuery>(list: List<Q, unknown>, query: Q): Applied {
  const { search, filters = {} } = list.declaration;
  const patterns = search && query.search ? searchPatterns(query.search, ...(search.alsoAs?.(query.search) ?? []).filter((t): t is string => Boolean(t))) : [];
  const set: Applied['filters'] = [];
  for (const [name, filter] of Object.entries(filters)) {
    const raw = filter.read ? filter.read(query) : (query as Record<string, unknown>)[name];
    if (filter.kind === 'toggle' ? raw === true : filter.kind === 'choice' ? typeof raw === 'string' && filter.cases[raw] !== undefined : raw !== undefined && raw !== null) {
      set.push({ name, filter: filter as ListFilter<never>, value: raw });
    }
  }
  return { patterns, filters: set };
}

/** The list's condition; values are placeholders (a prepared statement) or parameters (a bulk write). */
function condition(list: List<ListQuery, unknown>, archive: ArchiveMode, set: Applied, values: 'placeholders' | 'parameters', organization: string): SQL | undefined {
  const { declaration } = list;
  // A parameter wrapped whole: an array (the categories) is one array parameter, not a list.
  const bind = (name: string, value: unknown): SQL | Placeholder => (values === 'placeholders' ? sql.placeholder(name) : sql`${sql.param(value)}`);
  const filters = set.filters.map(({ name, filter, value }) => {
    if (filter.kind === 'toggle') return filter.where;
    if (filter.kind === 'choice') return filter.cases[value as string];
    return filter.where(bind(name, value));
  });
  const patterns = set.patterns.map((pattern, i) => bind(`search${i}`, pattern));
  return and(
    eq(declaration.organization, bind('organization', organization)),
    declaration.where,
    archiveCondition(declaration.archive, archive),
    declaration.search && patterns.length > 0 ? searchTextMatches(declaration.search.column, patterns) : undefined,
    ...filters,
  );
}

/**
 * The rows of the organization a list's query matches, its values bound as parameters: what a
 * bulk change applies to (the vehicles' category change over the list's filters).
 */
export function matching<Q extends ListQuery>(list: List<Q, unknown>, organizationUuid: string, query: Omit<Q, 'page' | 'limit'>): SQL | undefined {
  const full = query as Q;
  return condition(list as List<ListQuery, unknown>, archiveModeOf(full), applied(list, full), 'parameters', organizationUuid);
}

/** One-row source for statements made of scalar subqueries. */
const oneRow = sql`(values (1)) as one_row (x)`;

/**
 * The version of what a list shows: the versions of every register it shows, in a fixed order,
 * as text. Each only grows (migration 0008), so the text changes with any write to one of them.
 */
function versionOf(organization: SQL, shown: readonly Register[]): SQL<string> {
  return sql<string>`select coalesce(string_agg(${registerCounts.version}::text, ',' order by ${registerCounts.register}), '') from ${registerCounts} where ${registerCounts.organizationUuid} = ${organization} and ${inArray(registerCounts.register, [...shown])}`;
}

/**
 * ORDER BY of a page. With a search, the first key is wrapped so that PostgreSQL cannot walk the
 * sort index filtering row by row (a rare term far down that order means scanning most of the
 * register): it fetches the matches through the trigram index and sorts them instead.
 */
function orderBy(keys: SortKey[], descending: boolean, searching: boolean): SQL[] {
  return keys.map((key, i) => {
    const expression = searching && i === 0 ? sql`coalesce(${key}, ${key})` : sql`${key}`;
    return descending ? sql`${expression} desc` : sql`${expression} asc`;
  });
}

type Shape = Record<string, string | number | boolean>;

/**
 * The statement of one shape (archive mode, search spellings, filters set, sort), its values as
 * placeholders: the version, the maintained counts, the filtered total (counted up to
 * COUNT_CAP + 1, only for a filtered list) and the page's columns, one result row per row of the
 * page in its order — a single row of nulls but the state when the page is empty.
 */
function pageStatement(tx: ReadTx, list: List<ListQuery, unknown>, archive: ArchiveMode, set: Applied, sortBy: string) {
  const { declaration } = list;
  const organization = sql`${sql.placeholder('organization')}::uuid`;
  const where = condition(list, archive, set, 'placeholders', '');
  const descending = sortBy.startsWith('-');
  const sortColumn = (declaration.sort.keys as Record<string, SortKey | SortKey[]>)[descending ? sortBy.slice(1) : sortBy]!;
  const keys = [...(Array.isArray(sortColumn) ? sortColumn : [sortColumn]), declaration.key];

  // Every column under its own alias: a claim's uuid and its vehicle's uuid cannot collide.
  const names = Object.keys(declaration.columns);
  const selected: Record<string, SQL.Aliased> = {};
  names.forEach((name, i) => {
    const source = declaration.columns[name]!;
    selected[name] = is(source, SQL.Aliased) ? source.sql.as(`list_c${i}`) : sql`${source}`.mapWith(source).as(`list_c${i}`);
  });
  keys.forEach((key, i) => {
    selected[`list_sort${i}`] = sql`${key}`.as(`list_sort${i}`);
  });
  const base = tx.select(selected).from(declaration.table).$dynamic();
  const page = (declaration.joins ? declaration.joins(base) : base)
    .where(where)
    .orderBy(...orderBy(keys, descending, set.patterns.length > 0))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('list_page');

  const count = (column: PgColumn) =>
    sql<number>`coalesce((select ${column} from ${registerCounts} where ${registerCounts.organizationUuid} = ${organization} and ${registerCounts.register} = ${declaration.register}), 0)`.mapWith(Number);
  const state = tx
    .select({
      version: sql<string>`(${versionOf(organization, list.shows)})`.as('list_version'),
      active: count(registerCounts.active).as('list_active'),
      archived: count(registerCounts.archived).as('list_archived'),
    })
    .from(oneRow)
    .as('list_state');
  // The rows matching a filter, counted up to COUNT_CAP + 1 (an exact count of a million claims
  // costs seconds); NULL for an unfiltered list, whose total the maintained counts give.
  const filtered = set.patterns.length > 0 || set.filters.length > 0;
  const matched = filtered
    ? tx
        .select({ matched: sql<number | null>`count(*)`.mapWith(Number).as('list_matched') })
        .from(
          (() => {
            const counted = tx.select({ matching: sql`1`.as('list_matching_row') }).from(declaration.table).$dynamic();
            return (declaration.joins ? declaration.joins(counted) : counted).where(where).limit(COUNT_CAP + 1).as('list_matching');
          })(),
        )
        .as('list_count')
    : tx.select({ matched: sql<number | null>`null::bigint`.mapWith(Number).as('list_matched') }).from(oneRow).as('list_count');

  const pageFields = page as unknown as Record<string, SQL.Aliased>;
  const fields: Record<string, SQL.Aliased> = {};
  for (const name of names) fields[name] = pageFields[name]!;
  return tx
    .select({ listVersion: state.version, listActive: state.active, listArchived: state.archived, listMatched: matched.matched, ...fields })
    .from(state)
    .leftJoinLateral(matched, sql`true`)
    .leftJoinLateral(page, sql`true`)
    .orderBy(...keys.map((_, i) => (descending ? sql`${pageFields[`list_sort${i}`]} desc` : sql`${pageFields[`list_sort${i}`]} asc`)));
}

/** The page of a list as the registers are now, with the version it was read at. */
export type PageResult<Row> = {
  version: string;
  rows: Row[];
  total: number;
  totalIsCapped: boolean;
  counts: { nbInActivity: number; nbOfArchived: number };
};

type StateRow = { listVersion: string | null; listActive: number | null; listArchived: number | null; listMatched: number | null };

async function readPageResult<Q extends ListQuery, Row>(tx: ReadTx, list: List<Q, Row>, organizationUuid: string, query: Q): Promise<PageResult<Row>> {
  const generic = list as unknown as List<ListQuery, unknown>;
  const archive = archiveModeOf(query);
  const set = applied(list, query);
  const sortBy = query.sortBy ?? list.declaration.sort.default;
  const shape: Shape = { archive, patterns: set.patterns.length, sortBy };
  for (const { name, filter, value } of set.filters) shape[`filter_${name}`] = filter.kind === 'choice' ? (value as string) : true;
  const statement = prepared(tx, `${list.name}_list`, shape, () => pageStatement(tx, generic, archive, set, sortBy));
  const values: Record<string, unknown> = { organization: organizationUuid, limit: query.limit, offset: offsetOf(query.page, query.limit) };
  for (const { name, filter, value } of set.filters) if (filter.kind === 'value') values[name] = value;
  set.patterns.forEach((pattern, i) => (values[`search${i}`] = pattern));
  const result = (await statement.execute(values)) as (StateRow & Record<string, unknown>)[];

  // The state is a one-row table the rest is left-joined to: there is always a first row.
  const first = result[0]!;
  const names = Object.keys(list.declaration.columns);
  const rows = result.flatMap((r) => {
    if (r[list.keyName] === null) return [];
    const row: Record<string, unknown> = {};
    for (const name of names) row[name] = r[name];
    return [row as Row];
  });
  const active = first.listActive ?? 0;
  const archived = first.listArchived ?? 0;
  const counts = { nbInActivity: active, nbOfArchived: archived };
  const version = first.listVersion ?? '';
  const matched = first.listMatched;
  if (matched !== null) return { version, rows, total: Math.min(matched, COUNT_CAP), totalIsCapped: matched > COUNT_CAP, counts };
  const total = archive === 'only' ? archived : archive === 'with' ? active + archived : active;
  return { version, rows, total, totalIsCapped: false, counts };
}

/** The version of the registers a list shows, alone: what a held page is checked against (one primary-key range). */
async function readVersion(tx: ReadTx, list: List<ListQuery, unknown>, organizationUuid: string): Promise<string> {
  const statement = prepared(tx, 'register_version', { shown: list.shows.join(',') }, () =>
    tx.select({ version: sql<string>`(${versionOf(sql`${sql.placeholder('organization')}::uuid`, list.shows)})` }).from(oneRow),
  );
  const [row] = await statement.execute({ organization: organizationUuid });
  return row?.version ?? '';
}

export type ReadOptions = {
  /** Computed afresh, not served from the page cache (`Cache-Control: no-cache`, lib/list-routes.ts). */
  fresh?: boolean;
};

/** What a list endpoint answers: the page envelope and the register's maintained counts (a page schema without them leaves them out). */
export type ListPage<Item> = ReturnType<typeof toPage<Item>> & { nbInActivity: number; nbOfArchived: number };

/**
 * One page of a list for the organization, each row made into the API's item by `toItem`: the
 * page held when the registers it shows have not moved since it was computed, otherwise read
 * afresh (and kept). A service's `list()` is this one call.
 */
export function readPage<Q extends ListQuery, Row, Item>(
  db: Database,
  organizationUuid: string,
  list: List<Q, Row>,
  query: Q,
  toItem: (row: Row) => Item,
  options: ReadOptions = {},
): Promise<ListPage<Item>> {
  const generic = list as unknown as List<ListQuery, unknown>;
  return cachedPage(db, {
    key: `${list.name}\u0000${organizationUuid}\u0000${JSON.stringify(query)}`,
    limit: query.limit,
    fresh: options.fresh ?? false,
    version: () => readTenant(db, organizationUuid, (tx) => readVersion(tx, generic, organizationUuid)),
    read: () => readTenant(db, organizationUuid, (tx) => readPageResult(tx, list, organizationUuid, query)),
    build: ({ rows, total, totalIsCapped, counts }) => ({ ...toPage(rows.map(toItem), total, query.page, query.limit, totalIsCapped), ...counts }),
  });
}

/** The table names a list's statement reads (for the kit's tests). */
export function tablesRead(list: List<ListQuery, unknown>, tx: ReadTx): string[] {
  // Every filter set (a choice on its first case) and a search: whatever a filter joins is seen.
  const set: Applied = {
    patterns: list.declaration.search ? ['%x%'] : [],
    filters: Object.entries(list.declaration.filters ?? {}).map(([name, filter]) => ({
      name,
      filter: filter as ListFilter<never>,
      value: filter.kind === 'choice' ? Object.keys(filter.cases).find((c) => filter.cases[c]) : 'x',
    })),
  };
  const statement = pageStatement(tx, list, 'active', set, list.declaration.sort.default);
  const text = statement.toSQL().sql;
  return [...new Set([...text.matchAll(/(?:from|join)\s+"([a-z_]+)"/gi)].map((m) => m[1]!))].filter((name) => name !== getTableName(registerCounts));
}
