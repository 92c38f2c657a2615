import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';

/** `column` ascending, `-column` descending: the API's `sortBy` syntax. */
export type SortBy<TColumn extends string> = TColumn | `-${TColumn}`;

/**
 * Which rows of an archivable register are listed:
 * - `active`: not archived (the API's default, and ours);
 * - `archived`: only archived rows (`onlyArchived=true`);
 * - `all`: both (`withArchived=true`).
 */
export type ArchiveView = 'active' | 'archived' | 'all';

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

export type ListSearchParams<TColumn extends string, TFilter extends string = never> = {
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
  setPage: (page: number, options?: { replace?: boolean }) => void;
  /** Resets the page. Refining a search replaces the history entry; starting one pushes. */
  setSearch: (search: string) => void;
  /** Resets the page. */
  setSortBy: (sortBy: SortBy<TColumn>) => void;
  /** Resets the page. */
  setArchive: (archive: ArchiveView) => void;
  /** Resets the page. */
  setFilter: (name: TFilter, value: string) => void;
  /** Several filters in one navigation (e.g. a date range, or two exclusive toggles); resets the page. */
  setFilters: (values: Partial<Record<TFilter, string>>) => void;
  /** Search, archive view and extra filters back to their defaults; keeps the sort. */
  clearFilters: () => void;
};

export const LIST_PARAM = { page: 'page', search: 'search', sortBy: 'sortBy', archive: 'archived' } as const;
const ARCHIVE_IN_URL: Record<Exclude<ArchiveView, 'active'>, string> = { archived: 'only', all: 'all' };

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

const NO_FILTERS = {};

/**
 * The state of a register list (page, search, sort, archive view, extra filters), kept in the
 * URL search params: a reload, the back button or a shared link give the same view. Defaults
 * never appear in the URL. Every change but the page sends the user back to page 1 (SPEC 4).
 *
 * A register screen uses it through useRegisterList, which turns this state into the API's query.
 */
export function useListSearchParams<TColumn extends string, TFilter extends string = never>(
  options: ListSearchParamsOptions<TColumn, TFilter>,
): ListSearchParams<TColumn, TFilter> {
  const { sortColumns, defaultSort } = options;
  const filterDefaults = (options.filters ?? NO_FILTERS) as Readonly<Record<TFilter, string>>;
  const [searchParams, setSearchParams] = useSearchParams();

  // Options usually arrive as literals, new on every render: keep them by value, not identity.
  const defaultsKey = JSON.stringify(filterDefaults);
  const columnsKey = sortColumns.join(',');
  const stableDefaults = useMemo(() => JSON.parse(defaultsKey) as Readonly<Record<TFilter, string>>, [defaultsKey]);
  const stableColumns = useMemo(() => columnsKey.split(',') as TColumn[], [columnsKey]);

  const state = useMemo(() => {
    const page = parsePage(searchParams.get(LIST_PARAM.page));
    const search = (searchParams.get(LIST_PARAM.search) ?? '').trim();
    const sortBy = parseSort(searchParams.get(LIST_PARAM.sortBy), stableColumns, defaultSort);
    const archive = parseArchive(searchParams.get(LIST_PARAM.archive));
    const filters = {} as Record<TFilter, string>;
    for (const name of Object.keys(stableDefaults) as TFilter[]) {
      filters[name] = searchParams.get(name) ?? stableDefaults[name];
    }
    const isFiltered =
      search !== '' || archive !== 'active' || (Object.keys(filters) as TFilter[]).some((name) => filters[name] !== stableDefaults[name]);
    return { page, search, sortBy, archive, filters, isFiltered };
  }, [searchParams, stableColumns, stableDefaults, defaultSort]);

  /**
   * The URL as this hook last wrote or rendered it. A navigation renders in a transition that can
   * wait for the list's data while the screen keeps the previous state: a second change made
   * meanwhile (a toggle, then the guarantee at once) must start from the first one's URL, not from
   * the stale render's, or it silently undoes the first. React Router's functional update gives the
   * rendered params, so the hook keeps its own.
   */
  const latest = useRef(searchParams);
  useLayoutEffect(() => {
    latest.current = searchParams;
  }, [searchParams]);

  const update = useCallback(
    (change: (next: URLSearchParams) => void, { resetPage = true, replace = false } = {}) => {
      const next = new URLSearchParams(latest.current);
      change(next);
      if (resetPage) next.delete(LIST_PARAM.page);
      latest.current = next;
      setSearchParams(next, { replace, preventScrollReset: true });
    },
    [setSearchParams],
  );

  const writeFilter = useCallback(
    (next: URLSearchParams, name: TFilter, value: string) => {
      if (value === stableDefaults[name]) next.delete(name);
      else next.set(name, value);
    },
    [stableDefaults],
  );

  const setPage = useCallback(
    (page: number, { replace = false }: { replace?: boolean } = {}) =>
      update(
        (next) => {
          if (page > 1) next.set(LIST_PARAM.page, String(page));
          else next.delete(LIST_PARAM.page);
        },
        { resetPage: false, replace },
      ),
    [update],
  );

  const setSearch = useCallback(
    (search: string) => {
      const value = search.trim();
      const refining = value !== '' && (latest.current.get(LIST_PARAM.search) ?? '') !== '';
      update(
        (next) => {
          if (value) next.set(LIST_PARAM.search, value);
          else next.delete(LIST_PARAM.search);
        },
        { replace: refining },
      );
    },
    [update],
  );

  const setSortBy = useCallback(
    (sortBy: SortBy<TColumn>) =>
      update((next) => {
        if (sortBy === defaultSort) next.delete(LIST_PARAM.sortBy);
        else next.set(LIST_PARAM.sortBy, sortBy);
      }),
    [update, defaultSort],
  );

  const setArchive = useCallback(
    (archive: ArchiveView) =>
      update((next) => {
        if (archive === 'active') next.delete(LIST_PARAM.archive);
        else next.set(LIST_PARAM.archive, ARCHIVE_IN_URL[archive]);
      }),
    [update],
  );

  const setFilters = useCallback(
    (values: Partial<Record<TFilter, string>>) =>
      update((next) => {
        for (const name of Object.keys(values) as TFilter[]) writeFilter(next, name, values[name] ?? stableDefaults[name]);
      }),
    [update, writeFilter, stableDefaults],
  );

  const setFilter = useCallback(
    (name: TFilter, value: string) => setFilters({ [name]: value } as Partial<Record<TFilter, string>>),
    [setFilters],
  );

  const clearFilters = useCallback(
    () =>
      update((next) => {
        next.delete(LIST_PARAM.search);
        next.delete(LIST_PARAM.archive);
        for (const name of Object.keys(stableDefaults)) next.delete(name);
      }),
    [update, stableDefaults],
  );

  return { ...state, setPage, setSearch, setSortBy, setArchive, setFilter, setFilters, clearFilters };
}

/** The next sort when a column header is clicked: ascending first, then it flips. */
export function nextSort<TColumn extends string>(current: SortBy<TColumn>, column: TColumn): SortBy<TColumn> {
  return current === column ? `-${column}` : column;
}

/** `-lastName` → `{ column: 'lastName', direction: 'desc' }`. */
export function parseSortBy<TColumn extends string>(sortBy: SortBy<TColumn>): { column: TColumn; direction: 'asc' | 'desc' } {
  return sortBy.startsWith('-')
    ? { column: sortBy.slice(1) as TColumn, direction: 'desc' }
    : { column: sortBy as TColumn, direction: 'asc' };
}
