import { createHash, randomBytes } from 'node:crypto';
import { COUNT_CAP } from '@flotte/contract';
import { and, eq, getTableName, inArray, is, isNotNull, isNull, Placeholder, SQL, sql } from 'drizzle-orm';
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

/**
 * How a column of an export holds its values, each written the French way in CSV and as a typed
 * cell in XLSX (lib/spreadsheet-export.ts): `text` a string (neutralised when it could start a
 * formula), `plate` a normalised plate shown AB-123-CD, `date` an ISO day (YYYY-MM-DD), `euros` an
 * amount in euros, `number` a plain number, `boolean` Oui / Non.
 */
export type ExportColumnType = 'text' | 'plate' | 'date' | 'euros' | 'number' | 'boolean';

/** One column of a register's spreadsheet: its French header (what the import recognises) and its value in a row of the list. */
export type ExportColumn<Row> = {
  header: string;
  type: ExportColumnType;
  // A method: a list of rows is a list of unknown rows (the kit handles lists generically).
  value(row: Row): string | number | boolean | null | undefined;
  width?: number;
};

/** A register's spreadsheet export: the file's French name (before the date), the XLSX sheet's name, and its columns in order. */
export type ExportDeclaration<Row> = { file: string; sheet: string; columns: readonly ExportColumn<Row>[] };

type SortColumnOf<Q> = Q extends { sortBy?: infer S } ? Exclude<NonNullable<S>, `-${string}`> & string : never;

export type ListDeclaration<Q extends ListQuery, C extends Record<string, ColumnSource>> = {
  /** The contract's query schema of the list endpoint: the filters and sort keys below are typed by it. */
  query: z.ZodType<Q>;
  /** The list's name when its register has several lists (a form's choices beside the register's page). */
  name?: string;
  /** The register the list reads; its writes make a page stale. */
  register: Register;
  table: PgTable;
  /** The table's primary key: the page's tie-breaker, and how one record is found (a register's `uuid` by default). */
  key?: PgColumn;
  /** The column holding the organization (row-level security checks it too; the index starts with it): a register's `organizationUuid` by default. */
  organization?: PgColumn;
  /** The columns the list returns, each once: table columns, or columns of `joins`. */
  columns: C;
  /**
   * Values a page's rows carry beside their columns, read from other tables in the page's own
   * statement (a correlated subquery on the table's key: a record's files). Computed for the ten
   * rows of a page only, never for an export; answered in each row under its name. One statement
   * keeps a page computed afresh to one round trip (decision 006).
   */
  pageColumns?: Record<string, SQL>;
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
  /**
   * Totals over every row the query matches, whatever the page and never capped: answered as
   * `sums: { name: as(sum) }` (the claims' total cost, in euros from cents). A table's numeric column.
   */
  sums?: Record<string, { column: PgColumn; as?: (sum: number) => number; rollup?: SumRollup }>;
};

/**
 * The same sum kept up to date elsewhere, by day (the claims' daily totals, decision 029): read
 * there — a few hundred rows — rather than every matching row, when the query sets no search, lists
 * the active rows only and sets no filter but those the rollup can apply. A large organization's
 * claims of the year are 200 000 rows to add up; their days, 330.
 */
export type SumRollup = {
  table: PgTable;
  column: PgColumn;
  organization: PgColumn;
  /** The rollup's rows that hold the sum (its 'total' breakdown). */
  where?: SQL;
  /** The list's filters the rollup applies, on its own columns: given a value's parameter, or a choice's case. */
  filters: Record<string, (value: SQL | Placeholder | string) => SQL>;
};

/** A declaration with its spreadsheet export, typed by the list's row (defineList's `exports`). */
type ExportOf<C extends Record<string, ColumnSource>, TName extends string> = {
  /**
   * The register's CSV and XLSX export of the list's view (same query, every row, in the list's
   * order): GET `path`/export (lib/register-routes.ts). Declaring it is all a register does.
   */
  exports?: ExportDeclaration<NoInfer<RowOf<C, TName>>>;
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
  readonly declaration: ListDeclaration<Q, Record<string, ColumnSource>> & { key: PgColumn; organization: PgColumn };
  /** Every register whose version the pages depend on, the list's own first. */
  readonly shows: readonly Register[];
  /** The name of the key among the columns: a page's row of nulls has it null. */
  readonly keyName: string;
  /** Its spreadsheet export, when the register declares one. */
  readonly exports?: ExportDeclaration<Row>;
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
  declaration: ListDeclaration<Q, C> & { table: TTable } & ExportOf<C, TTable['_']['name']>,
): List<Q, RowOf<C, TTable['_']['name']>, TTable> {
  const shows = [declaration.register, ...(declaration.shows ?? []).filter((r) => r !== declaration.register)];
  // A register's table starts with registerKeyColumns(): its key and organization columns.
  const columnsOfTable = declaration.table as unknown as { uuid?: PgColumn; organizationUuid?: PgColumn };
  const key = declaration.key ?? columnsOfTable.uuid;
  const organization = declaration.organization ?? columnsOfTable.organizationUuid;
  if (!key || !organization) throw new Error(`list ${declaration.register}: name its key and organization columns`);
  const keyName = Object.keys(declaration.columns).find((name) => declaration.columns[name] === key);
  if (!keyName) throw new Error(`list ${declaration.register}: its key must be one of its columns`);
  const resolved = { ...declaration, key, organization } as unknown as List<Q, unknown>['declaration'];
  const list = {
    name: declaration.name ?? declaration.register,
    table: declaration.table,
    declaration: resolved,
    shows,
    keyName,
    ...(declaration.exports && { exports: declaration.exports as ExportDeclaration<RowOf<C, TTable['_']['name']>> }),
  };
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
function condition(
  list: List<ListQuery, unknown>,
  archive: ArchiveMode,
  set: Applied,
  values: 'placeholders' | 'parameters',
  organization: string,
  plan: SearchPlan = 'trigram',
): SQL | undefined {
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
    // Scanning, the search text is tested as an expression no index holds: the planner then reads
    // the organization's rows (in the page's order) instead of a trigram index.
    declaration.search && patterns.length > 0
      ? searchTextMatches(plan === 'scan' ? sql`(${declaration.search.column} || '')` : declaration.search.column, patterns)
      : undefined,
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
 * How a search reads its matches (decision 012), chosen per request from what the server knows:
 * - `trigram`: through the (organization, search_text) trigram index, then sorted — a large
 *   register and a term of three characters or more (the index has something to look up);
 * - `scan`: through the organization's rows in the requested order, each tested — a small
 *   register (its rows cost less than any index's), or a term too short to have a trigram, where
 *   the matches are many and the first ones in order come soon.
 * Either way the cost follows the organization's rows, never the platform's.
 */
export type SearchPlan = 'trigram' | 'scan';

/** Registers of up to this many rows (active and archived) are searched by reading them. */
export const SMALL_REGISTER = 5_000;

let forcedPlan: SearchPlan | undefined;
/** Tests only: every search reads with this plan (results must not depend on it), or as chosen again with undefined. */
export function forceSearchPlan(plan: SearchPlan | undefined) {
  forcedPlan = plan;
}

/** `terms`: the search's spellings (searchPatterns); one of fewer than three characters has no trigram to look up. */
export function searchPlan(terms: readonly string[], registerRows: number | undefined): SearchPlan {
  if (forcedPlan) return forcedPlan;
  if (registerRows !== undefined && registerRows <= SMALL_REGISTER) return 'scan';
  return terms.some((term) => term.length < 3) ? 'scan' : 'trigram';
}

/** Registers' sizes by organization, from the counts every page brings back (bounded; a guess is only a plan). */
const registerRows = new Map<string, number>();
const MAX_KNOWN_SIZES = 20_000;

function knownSize(register: Register, organizationUuid: string): number | undefined {
  return registerRows.get(`${register}\u0000${organizationUuid}`);
}

function learnSize(register: Register, organizationUuid: string, rows: number) {
  const key = `${register}\u0000${organizationUuid}`;
  if (registerRows.get(key) === rows) return;
  registerRows.delete(key);
  registerRows.set(key, rows);
  if (registerRows.size > MAX_KNOWN_SIZES) registerRows.delete(registerRows.keys().next().value!);
}

/**
 * ORDER BY of the matches. For a trigram search the first key is wrapped so that PostgreSQL does
 * not walk the sort index testing row by row (a rare term far down that order means reading most
 * of the register): it fetches the matches through the index and sorts them instead.
 */
function orderBy(keys: SortKey[], descending: boolean, wrapFirst: boolean): SQL[] {
  return keys.map((key, i) => {
    const expression = wrapFirst && i === 0 ? sql`coalesce(${key}, ${key})` : sql`${key}`;
    return descending ? sql`${expression} desc` : sql`${expression} asc`;
  });
}

type Shape = Record<string, string | number | boolean>;

/**
 * The statement of one shape (archive mode, search spellings and plan, filters set, sort), its
 * values as placeholders: the version, the maintained counts, the filtered total and the page's
 * columns, one result row per row of the page in its order — a single row of nulls but the
 * state when the page is empty. A filtered list reads its matches once, in the page's order and
 * up to COUNT_CAP + 1 rows (or to the page's end, if further): their number is the total (capped),
 * the page is a slice of them. An unfiltered list's total is the maintained counts'.
 */
function pageStatement(tx: ReadTx, list: List<ListQuery, unknown>, archive: ArchiveMode, set: Applied, sortBy: string, plan: SearchPlan) {
  const { declaration } = list;
  const organization = sql`${sql.placeholder('organization')}::uuid`;
  const where = condition(list, archive, set, 'placeholders', '', plan);
  const descending = sortBy.startsWith('-');
  const sortColumn = (declaration.sort.keys as Record<string, SortKey | SortKey[]>)[descending ? sortBy.slice(1) : sortBy]!;
  const keys = [...(Array.isArray(sortColumn) ? sortColumn : [sortColumn]), declaration.key];
  const filtered = set.patterns.length > 0 || set.filters.length > 0;

  // Every column under its own alias: a claim's uuid and its vehicle's uuid cannot collide.
  const names = Object.keys(declaration.columns);
  const selected: Record<string, SQL.Aliased> = {};
  names.forEach((name, i) => {
    const source = declaration.columns[name]!;
    selected[name] = is(source, SQL.Aliased) ? source.sql.as(`list_c${i}`) : sql`${source}`.mapWith(source).as(`list_c${i}`);
  });
  const withJoins = <S extends PgSelect>(select: S) => (declaration.joins ? declaration.joins(select) : select);
  const pageColumnNames = Object.keys(declaration.pageColumns ?? {});
  pageColumnNames.forEach((name, i) => (selected[name] = sql`${declaration.pageColumns![name]!}`.as(`list_p${i}`)));

  const sortKeysOf = (source: (i: number) => SQL | SQL.Aliased | PgColumn) => keys.map((_, i) => (descending ? sql`${source(i)} desc` : sql`${source(i)} asc`));
  const sumNames = Object.keys(declaration.sums ?? {});
  const sumColumn = (name: string) => declaration.sums![name]!.column;
  // Every match's row, read again: what a sum costs when the matches read were cut at the cap.
  const sumOfAll = (name: string) => sql`(select sum(${sumColumn(name)}) from ${declaration.table} where ${where})`;
  // The sum from its rollup, when the rollup can apply every filter the query sets (else null).
  const sumOfRollup = (name: string): SQL | null => {
    const rollup = declaration.sums![name]!.rollup;
    if (!rollup || archive !== 'active' || set.patterns.length > 0 || !set.filters.every(({ name: filter }) => rollup.filters[filter])) return null;
    const conditions = set.filters.map(({ name: filter, filter: { kind }, value }) =>
      rollup.filters[filter]!(kind === 'choice' ? (value as string) : sql.placeholder(filter)),
    );
    return sql`(select sum(${rollup.column}) from ${rollup.table} where ${and(eq(rollup.organization, sql.placeholder('organization')), rollup.where, ...conditions)})`;
  };
  const sums: Record<string, SQL.Aliased> = {};
  let page;
  let matched;
  let matches;
  if (filtered) {
    const sortSelection: Record<string, SQL.Aliased> = { list_key: sql`${declaration.key}`.as('list_key') };
    keys.forEach((key, i) => (sortSelection[`list_sort${i}`] = sql`${key}`.as(`list_sort${i}`)));
    // The summed columns ride with the matches: summed there while they are all of them.
    sumNames.forEach((name, i) => (sortSelection[`list_sum${i}`] = sql`${sumColumn(name)}`.as(`list_sum${i}`)));
    // Through the trigram index the matches come unordered: all of them are kept (sorting them to
    // keep the first 1 001 costs more than the page's top-N sort of all); read in the page's order,
    // reading stops at the cap.
    const unordered = plan === 'trigram' && set.patterns.length > 0;
    const found = tx.select(sortSelection).from(declaration.table).where(where).$dynamic();
    matches = tx.$with('list_matches').as(unordered ? found : found.orderBy(...orderBy(keys, descending, false)).limit(sql.placeholder('cap')));
    const m = matches as unknown as Record<string, SQL.Aliased>;
    // The page's keys first, then their rows and joins: ten lookups, not one per match.
    const pageKeys = tx
      .select(Object.fromEntries(Object.keys(sortSelection).map((name) => [name, m[name]!])))
      .from(matches)
      .orderBy(...sortKeysOf((i) => m[`list_sort${i}`]!))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .as('list_page_keys');
    const k = pageKeys as unknown as Record<string, SQL.Aliased>;
    keys.forEach((_, i) => (selected[`list_sort${i}`] = sql`${k[`list_sort${i}`]}`.as(`list_sort${i}`)));
    page = withJoins(tx.select(selected).from(pageKeys).innerJoin(declaration.table, sql`${declaration.key} = ${k.list_key}`).$dynamic()).as('list_page');
    matched = sql<number | null>`(select count(*) from ${matches})`.mapWith(Number);
    // Read unordered, the matches are all there; read in order, they are until the cap cut them
    // (fewer than the cap read). Otherwise the sum reads every match again: exact, never capped.
    // PostgreSQL runs a CASE's subquery only when its branch is taken.
    const cte = matches;
    sumNames.forEach((name, i) => {
      const ofMatches = sql`(select sum(${m[`list_sum${i}`]!}) from ${cte})`;
      const ofRollup = sumOfRollup(name);
      sums[name] = (
        ofRollup
          ? sql`coalesce(${ofRollup}, 0)`
          : unordered
            ? sql`coalesce(${ofMatches}, 0)`
            : sql`coalesce(case when (select count(*) from ${cte}) < ${sql.placeholder('cap')} then ${ofMatches} else ${sumOfAll(name)} end, 0)`
      )
        .mapWith(Number)
        .as(`list_sum${i}`);
    });
  } else {
    keys.forEach((key, i) => (selected[`list_sort${i}`] = sql`${key}`.as(`list_sort${i}`)));
    page = withJoins(tx.select(selected).from(declaration.table).$dynamic())
      .where(where)
      .orderBy(...orderBy(keys, descending, false))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .as('list_page');
    // An unfiltered list's total comes from the maintained counts; its sums read the organization's rows.
    matched = sql<number | null>`null::bigint`.mapWith(Number);
    sumNames.forEach((name, i) => (sums[name] = sql`coalesce(${sumOfRollup(name) ?? sumOfAll(name)}, 0)`.mapWith(Number).as(`list_sum${i}`)));
  }

  const count = (column: PgColumn) =>
    sql<number>`coalesce((select ${column} from ${registerCounts} where ${registerCounts.organizationUuid} = ${organization} and ${registerCounts.register} = ${declaration.register}), 0)`.mapWith(Number);
  const state = tx
    .select({
      version: sql<string>`(${versionOf(organization, list.shows)})`.as('list_version'),
      active: count(registerCounts.active).as('list_active'),
      archived: count(registerCounts.archived).as('list_archived'),
      matched: matched.as('list_matched'),
      ...Object.fromEntries(sumNames.map((name, i) => [`sum${i}`, sums[name]!])),
    })
    .from(oneRow)
    .as('list_state');

  const pageFields = page as unknown as Record<string, SQL.Aliased>;
  const fields: Record<string, SQL.Aliased> = {};
  for (const name of [...names, ...pageColumnNames]) fields[name] = pageFields[name]!;
  return (matches ? tx.with(matches) : tx)
    .select({
      listVersion: state.version,
      listActive: state.active,
      listArchived: state.archived,
      listMatched: state.matched,
      ...Object.fromEntries(sumNames.map((_, i) => [`listSum${i}`, (state as unknown as Record<string, SQL.Aliased>)[`sum${i}`]!])),
      ...fields,
    })
    .from(state)
    .leftJoinLateral(page, sql`true`)
    .orderBy(...sortKeysOf((i) => pageFields[`list_sort${i}`]!));
}

/**
 * Every row of a list's query, page and limit aside, in the list's order: the statement an export
 * reads through a cursor (db/list-export.ts), its values as parameters. Each column comes under
 * `list_c<i>` with what turns the database's value into the row's (`decode`): dates and times are
 * read as text, so that no driver's own parsing applies.
 */
export function exportStatement<Q extends ListQuery>(tx: ReadTx, list: List<Q, unknown>, organizationUuid: string, query: Q) {
  const generic = list as unknown as List<ListQuery, unknown>;
  const { declaration } = generic;
  const set = applied(generic, query);
  const plan = set.patterns.length > 0 ? searchPlan(set.patterns, knownSize(declaration.register, organizationUuid)) : 'trigram';
  const where = condition(generic, archiveModeOf(query), set, 'parameters', organizationUuid, plan);
  const sortBy = query.sortBy ?? declaration.sort.default;
  const descending = sortBy.startsWith('-');
  const sortColumn = (declaration.sort.keys as Record<string, SortKey | SortKey[]>)[descending ? sortBy.slice(1) : sortBy]!;
  const keys = [...(Array.isArray(sortColumn) ? sortColumn : [sortColumn]), declaration.key];
  const names = Object.keys(declaration.columns);
  const selected: Record<string, SQL.Aliased> = {};
  const decoders: ((raw: unknown) => unknown)[] = [];
  names.forEach((name, i) => {
    const source = declaration.columns[name]!;
    const { select, decode } = readAsText(source);
    selected[`list_c${i}`] = select.as(`list_c${i}`);
    decoders.push(decode);
  });
  const select = tx.select(selected).from(declaration.table).$dynamic();
  const statement = (declaration.joins ? declaration.joins(select) : select).where(where).orderBy(...orderBy(keys, descending, plan === 'trigram' && set.patterns.length > 0));
  const decode = (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = {};
    names.forEach((name, i) => {
      const value = raw[`list_c${i}`];
      row[name] = value === null || value === undefined ? null : decoders[i]!(value);
    });
    return row;
  };
  return { statement, decode };
}

/** A column as a cursor reads it: dates and times as text (ISO), other values as the driver gives them, then the column's own mapping. */
function readAsText(source: ColumnSource): { select: SQL; decode: (raw: unknown) => unknown } {
  if (is(source, SQL.Aliased)) return { select: source.sql, decode: (raw) => (source.sql as unknown as { decoder: { mapFromDriverValue: (raw: unknown) => unknown } }).decoder.mapFromDriverValue(raw) };
  const type = source.columnType;
  if (type === 'PgDateString' || type === 'PgDate') {
    return { select: sql`to_char(${source}, 'YYYY-MM-DD')`, decode: (raw) => (type === 'PgDate' ? new Date(`${String(raw)}T00:00:00Z`) : raw) };
  }
  if (type === 'PgTimestamp' || type === 'PgTimestampString') {
    return {
      select: sql`to_char(${source} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      decode: (raw) => (type === 'PgTimestamp' ? new Date(String(raw)) : raw),
    };
  }
  return { select: sql`${source}`, decode: (raw) => source.mapFromDriverValue(raw) };
}

/** The page of a list as the registers are now, with the version it was read at. */
export type PageResult<Row> = {
  version: string;
  rows: Row[];
  total: number;
  totalIsCapped: boolean;
  counts: { nbInActivity: number; nbOfArchived: number };
  /** The declared sums (ListDeclaration.sums), when the list has any. */
  sums?: Record<string, number>;
};

type StateRow = { listVersion: string | null; listActive: number | null; listArchived: number | null; listMatched: number | null };

/** A list query as its statement's shape (what its SQL depends on) and values (its placeholders). */
function prepare<Q extends ListQuery>(list: List<Q, unknown>, organizationUuid: string, query: Q) {
  const archive = archiveModeOf(query);
  const set = applied(list, query);
  const sortBy = query.sortBy ?? list.declaration.sort.default;
  const plan = set.patterns.length > 0 ? searchPlan(set.patterns, knownSize(list.declaration.register, organizationUuid)) : 'trigram';
  const shape: Shape = { archive, patterns: set.patterns.length, sortBy, plan };
  for (const { name, filter, value } of set.filters) shape[`filter_${name}`] = filter.kind === 'choice' ? (value as string) : true;
  const offset = offsetOf(query.page, query.limit);
  // The matches read: enough to count up to the cap, and to reach the page's end.
  const values: Record<string, unknown> = { organization: organizationUuid, limit: query.limit, offset, cap: Math.max(COUNT_CAP + 1, offset + query.limit) };
  for (const { name, filter, value } of set.filters) if (filter.kind === 'value') values[name] = value;
  set.patterns.forEach((pattern, i) => (values[`search${i}`] = pattern));
  const build = (tx: ReadTx) => pageStatement(tx, list as unknown as List<ListQuery, unknown>, archive, set, sortBy, plan);
  return { archive, shape, values, build };
}

async function readPageResult<Q extends ListQuery, Row>(tx: ReadTx, list: List<Q, Row>, organizationUuid: string, query: Q): Promise<PageResult<Row>> {
  const { archive, shape, values, build } = prepare(list, organizationUuid, query);
  const statement = prepared(tx, `${list.name}_list`, shape, () => build(tx));
  const result = (await statement.execute(values)) as (StateRow & Record<string, unknown>)[];

  // The state is a one-row table the rest is left-joined to: there is always a first row.
  const first = result[0]!;
  const names = [...Object.keys(list.declaration.columns), ...Object.keys(list.declaration.pageColumns ?? {})];
  const rows = result.flatMap((r) => {
    if (r[list.keyName] === null) return [];
    const row: Record<string, unknown> = {};
    for (const name of names) row[name] = r[name];
    return [row as Row];
  });
  const active = first.listActive ?? 0;
  const archived = first.listArchived ?? 0;
  learnSize(list.declaration.register, organizationUuid, active + archived);
  const counts = { nbInActivity: active, nbOfArchived: archived };
  const version = first.listVersion ?? '';
  const declaredSums = list.declaration.sums;
  const sums = declaredSums
    ? Object.fromEntries(Object.keys(declaredSums).map((name, i) => [name, (declaredSums[name]!.as ?? Number)(Number(first[`listSum${i}`] ?? 0))]))
    : undefined;
  const matched = first.listMatched;
  if (matched !== null) return { version, rows, total: Math.min(matched, COUNT_CAP), totalIsCapped: matched > COUNT_CAP, counts, ...(sums && { sums }) };
  const total = archive === 'only' ? archived : archive === 'with' ? active + archived : active;
  return { version, rows, total, totalIsCapped: false, counts, ...(sums && { sums }) };
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
  /** Computed afresh, not served from the page cache (`Cache-Control: no-cache`, lib/register-routes.ts). */
  fresh?: boolean;
  /** The ETag of the page the client holds (`If-None-Match`): unchanged, NotModified is thrown instead of reading it. */
  ifNoneMatch?: string;
};

/** What a list endpoint answers: the page envelope and the register's maintained counts (a page schema without them leaves them out). */
export type ListPage<Item> = ReturnType<typeof toPage<Item>> & { nbInActivity: number; nbOfArchived: number; sums?: Record<string, number> };

/** The page the client holds is still the page: answer 304 without it. */
export class NotModified {
  constructor(readonly etag: string) {}
}

/** Changes with every deployment: a new server may shape the same data otherwise. */
const SERVER_BUILD = randomBytes(6).toString('base64url');

/**
 * A page's ETag: the page's key (list, organization, query) and the version of the registers it
 * shows, hashed. Weak: the same data may be serialized with other white space.
 */
function etagOf(key: string, version: string): string {
  return `W/"${createHash('sha1').update(`${key}\u0000${version}\u0000${SERVER_BUILD}`).digest('base64url').slice(0, 22)}"`;
}

/** The ETag of each page served, for its route to send (lib/register-routes.ts). */
const etags = new WeakMap<object, string>();
export function etagOfPage(page: object): string | undefined {
  return etags.get(page);
}

/**
 * One page of a list for the organization, each row made into the API's item by `toItem`: the
 * page held when the registers it shows have not moved since it was computed, otherwise read
 * afresh (and kept). With `ifNoneMatch` equal to the page's current ETag, throws NotModified
 * after one small statement. A service's `list()` is this one call.
 */
export async function readPage<Q extends ListQuery, Row, Item>(
  db: Database,
  organizationUuid: string,
  list: List<Q, Row>,
  query: Q,
  toItem: (row: Row) => Item,
  options: ReadOptions = {},
): Promise<ListPage<Item>> {
  const generic = list as unknown as List<ListQuery, unknown>;
  const key = `${list.name}\u0000${organizationUuid}\u0000${JSON.stringify(query)}`;
  const readCurrentVersion = () => readTenant(db, organizationUuid, (tx) => readVersion(tx, generic, organizationUuid));
  let known: string | undefined;
  if (options.ifNoneMatch) {
    known = await readCurrentVersion();
    const etag = etagOf(key, known);
    if (options.ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) throw new NotModified(etag);
  }
  const { page, version } = await cachedPage(db, {
    key,
    limit: query.limit,
    fresh: options.fresh ?? false,
    version: known === undefined ? readCurrentVersion : async () => known,
    read: () =>
      readTenant(db, organizationUuid, async (tx) => {
        const result = await readPageResult(tx, list, organizationUuid, query);
        return { ...result, items: result.rows.map(toItem) };
      }),
    build: ({ items, total, totalIsCapped, counts, sums }): ListPage<Item> => ({ ...toPage(items, total, query.page, query.limit, totalIsCapped), ...counts, ...(sums && { sums }) }),
  });
  // A page held may be served to several requests at once: its ETag is the same for all of them.
  if (!etags.has(page)) etags.set(page, etagOf(key, version));
  return page;
}

/** The table names a list's statement reads (for the kit's tests). */
export function tablesRead(list: List<ListQuery, unknown>, tx: ReadTx): string[] {
  // Every filter set (a choice on its first case) and a search: whatever a filter joins is seen.
  const set: Applied = {
    patterns: list.declaration.search ? ['x'] : [],
    filters: Object.entries(list.declaration.filters ?? {}).map(([name, filter]) => ({
      name,
      filter: filter as ListFilter<never>,
      value: filter.kind === 'choice' ? Object.keys(filter.cases).find((c) => filter.cases[c]) : 'x',
    })),
  };
  const statement = pageStatement(tx, list, 'active', set, list.declaration.sort.default, 'trigram');
  const text = statement.toSQL().sql;
  return [...new Set([...text.matchAll(/(?:from|join)\s+"([a-z_]+)"/gi)].map((m) => m[1]!))].filter((name) => name !== getTableName(registerCounts));
}

/** The SQL and values of a list's statement for a query (for EXPLAIN in tools and docs). */
export function explainStatement<Q extends ListQuery>(tx: ReadTx, list: List<Q, unknown>, organizationUuid: string, query: Q) {
  const { values, build } = prepare(list, organizationUuid, query);
  const { sql: text, params } = build(tx).toSQL();
  return { text, params: params.map((p) => (p instanceof Placeholder ? values[p.name] : p)) };
}
