import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { ARCHIVE_IN_URL, LIST_PARAM, listStateOf, type ArchiveView, type ListSearchParamsOptions, type ListState, type SortBy } from './list-query';

export { LIST_PARAM, type ArchiveView, type ListSearchParamsOptions, type SortBy } from './list-query';

export type ListSearchParams<TColumn extends string, TFilter extends string = never> = ListState<TColumn, TFilter> & {
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

  const state = useMemo(
    () => listStateOf(searchParams, { sortColumns: stableColumns, defaultSort, filters: stableDefaults }),
    [searchParams, stableColumns, stableDefaults, defaultSort],
  );

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
