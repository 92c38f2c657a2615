import { PAGE_SIZE } from '@flotte/contract';

// A register list's view as its URL says it, and the API query it asks: pure functions, shared by
// the screens' hooks (use-list-search-params, use-register-list) and by the cold load's first
// request (lib/first-requests.ts), which must ask exactly what the screen will.

/** `column` ascending, `-column` descending: the API's `sortBy` syntax. */
export type SortBy<TColumn extends string> = TColumn | `-${TColumn}`;

/**
 * Which rows of an archivable register are listed:
 * - `active`: not archived (the API's default, and ours);
 * - `archived`: only archived rows (`onlyArchived=true`);
 * - `all`: both (`withArchived=true`).
 */
export type ArchiveView = 'active' | 'archived' | 'all';

/** The URL's parameters of a list view. */
export const LIST_PARAM = { page: 'page', search: 'search', sortBy: 'sortBy', archive: 'archived' } as const;
export const ARCHIVE_IN_URL: Record<Exclude<ArchiveView, 'active'>, string> = { archived: 'only', all: 'all' };

function parsePage(raw: string | null): number {
  if (!raw || !/^\d+$/.test(raw)) return 1;
  const page = Number(raw);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

function parseArchive(raw: string | null): ArchiveView {
  if (raw === ARCHIVE_IN_URL.archived) return 'archived';
  if (raw === ARCHIVE_IN_URL.all) return 'all';
  return 'active';
}

function parseSort<TColumn extends string>(raw: string | null, columns: readonly TColumn[], fallback: SortBy<TColumn>): SortBy<TColumn> {
  if (!raw) return fallback;
  const column = raw.startsWith('-') ? raw.slice(1) : raw;
  return (columns as readonly string[]).includes(column) ? (raw as SortBy<TColumn>) : fallback;
}

export type ListSearchParamsOptions<TColumn extends string, TFilter extends string> = {
  /** The sortable columns of the API (e.g. DRIVER_SORT_COLUMNS); anything else in the URL is ignored. */
  sortColumns: readonly TColumn[];
  /** The sort when the URL says nothing; it is never written to the URL. */
  defaultSort: SortBy<TColumn>;
  /**
   * Extra filters: URL parameter name → default value (`''` for "no filter"). Values are strings
   * (`'true'` for a toggle, `'VP,VUL'` for a list, `'2025-01-01'` for a date); a value equal to
   * its default is never written to the URL, so defaults (e.g. "1 January of this year") can
   * move without breaking shared links.
   */
  filters?: Readonly<Record<TFilter, string>>;
};

/** A list view read from its URL: defaults where the URL says nothing or something unknown. */
export type ListState<TColumn extends string, TFilter extends string> = {
  /** 1-based page. */
  page: number;
  /** Trimmed search text, `''` when none. */
  search: string;
  sortBy: SortBy<TColumn>;
  archive: ArchiveView;
  /** Every extra filter, defaults included. */
  filters: Readonly<Record<TFilter, string>>;
  /** True when the search, the archive view or an extra filter differs from its default. */
  isFiltered: boolean;
};

/** The view a URL's search params describe, with the list's sortable columns and filter defaults. */
export function listStateOf<TColumn extends string, TFilter extends string>(
  searchParams: URLSearchParams,
  options: ListSearchParamsOptions<TColumn, TFilter>,
): ListState<TColumn, TFilter> {
  const defaults = (options.filters ?? {}) as Readonly<Record<TFilter, string>>;
  const page = parsePage(searchParams.get(LIST_PARAM.page));
  const search = (searchParams.get(LIST_PARAM.search) ?? '').trim();
  const sortBy = parseSort(searchParams.get(LIST_PARAM.sortBy), options.sortColumns, options.defaultSort);
  const archive = parseArchive(searchParams.get(LIST_PARAM.archive));
  const filters = {} as Record<TFilter, string>;
  for (const name of Object.keys(defaults) as TFilter[]) {
    filters[name] = searchParams.get(name) ?? defaults[name];
  }
  const isFiltered = search !== '' || archive !== 'active' || (Object.keys(filters) as TFilter[]).some((name) => filters[name] !== defaults[name]);
  return { page, search, sortBy, archive, filters, isFiltered };
}

/**
 * The API's query for a URL state: page, limit (PAGE_SIZE), search, sortBy, the archive flag and
 * every filter that is not empty. Typed by the register's contract schema (`z.input` of its
 * list query schema), whose boolean parameters are the strings 'true'/'false'.
 */
export function toApiQuery<TQuery>(state: Omit<ListState<string, string>, 'isFiltered'>): TQuery {
  const query: Record<string, string | number> = { page: state.page, limit: PAGE_SIZE, sortBy: state.sortBy };
  if (state.search) query.search = state.search;
  if (state.archive === 'archived') query.onlyArchived = 'true';
  if (state.archive === 'all') query.withArchived = 'true';
  for (const [name, value] of Object.entries(state.filters)) {
    if (value !== '') query[name] = value;
  }
  return query as TQuery;
}

/**
 * What a register screen's list is, apart from its API client: its path, sortable columns, default
 * sort and filters with their defaults (a function: a default may move with the calendar). The
 * screen reads it through useRegisterList; the cold load asks its first page through listRequest
 * before the screen's chunk has arrived (lib/first-requests.ts).
 */
export type ListView<TColumn extends string, TFilter extends string = never> = Omit<ListSearchParamsOptions<TColumn, TFilter>, 'filters'> & {
  path: `/api/${string}`;
  filters?: () => Readonly<Record<TFilter, string>>;
};

/** The options useListSearchParams takes, from a list's view (its filters' defaults as of now). */
export function listOptions<TColumn extends string, TFilter extends string>(view: ListView<TColumn, TFilter>): ListSearchParamsOptions<TColumn, TFilter> {
  return { sortColumns: view.sortColumns, defaultSort: view.defaultSort, filters: view.filters?.() };
}

/** The GET the screen of `view` asks first for a URL's search params: the same path and query. */
export function listRequest<TColumn extends string, TFilter extends string>(view: ListView<TColumn, TFilter>, searchParams: URLSearchParams) {
  return { path: view.path, query: toApiQuery<Record<string, string | number>>(listStateOf(searchParams, listOptions(view))) };
}
