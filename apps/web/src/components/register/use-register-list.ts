import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { RegisterPage, RegisterRecord } from '../../lib/register-api';
import type { ArchiveCounts } from './archive-filter';
import { toApiQuery } from './list-query';
import { useListSearchParams, type ListSearchParams, type SortBy } from './use-list-search-params';

export { toApiQuery } from './list-query';

/** The list side of a register's API (lib/register-api.ts): a page per query, previous data kept. */
export type RegisterListSource<TQuery, TPage extends RegisterPage<RegisterRecord>> = {
  useList: (query: TQuery) => UseQueryResult<TPage, Error>;
  /** False for a register whose pages carry no active/archived counts (the claims). */
  archiveCounts: boolean;
};

export type RegisterListDeclaration<TQuery, TPage extends RegisterPage<RegisterRecord>, TColumn extends string, TFilter extends string> = {
  api: RegisterListSource<TQuery, TPage>;
  /** The sortable columns of the contract (e.g. DRIVER_SORT_COLUMNS); anything else in the URL is ignored. */
  sortColumns: readonly TColumn[];
  /** The sort when the URL says nothing; never written to the URL. */
  defaultSort: SortBy<TColumn>;
  /**
   * Extra filters, named as the API names them: URL parameter → default (`''` for none). A
   * default that moves (this year's first day) stays out of the URL but reaches the API.
   */
  filters?: Readonly<Record<TFilter, string>>;
};

/** `rows` to `retry`: the state of the list query once SPEC 8 and the page rules are applied. */
export type RegisterListState<TRow> = {
  rows: TRow[];
  total: number;
  /** `total` is a floor (COUNT_CAP), not the exact count. False while unknown or after a failure. */
  totalIsCapped: boolean;
  nbOfPages: number;
  /** The API's `nbInActivity` and `nbOfArchived`; 0 while unknown or after a failure. */
  counts: Required<ArchiveCounts>;
  /** The list's declared sums over everything the query matches (the claims' total cost); empty while unknown or after a failure. */
  sums: Readonly<Record<string, number>>;
  /**
   * The list has answered: its total, counts and sums are the server's. False while it loads and
   * after a failure, when the counts are 0 by SPEC 8 and a line such as '0 conducteur actif' above
   * the failure's alert would be untrue.
   */
  known: boolean;
  /** No data to show yet. */
  loading: boolean;
  /** Showing the previous data while the next arrives. */
  fetching: boolean;
  /** The failure of the list query, shown once, inline (RegisterTable's Alert). */
  error: Error | null;
  retry: () => void;
};

/**
 * Reads a register list query and applies SPEC 8 on a failed fetch: the list is emptied, the page
 * goes back to 1, the counts to 0. The failure itself is told once, by RegisterTable's inline
 * Alert (STYLE habit 8: no snackbar for a failed query). A page beyond the last one (its last row
 * was archived) goes back to the last page.
 *
 * `query` must keep the previous data while the next page loads (placeholderData: keepPreviousData).
 */
export function useListQueryState<TPage extends RegisterPage<unknown>>(
  query: UseQueryResult<TPage, Error>,
  list: Pick<ListSearchParams<string>, 'page' | 'setPage'>,
): RegisterListState<TPage['data'][number]> {
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = query;
  const { page, setPage } = list;
  // A failure beyond page 1 moves to page 1 (the effect below): until that page has answered, the
  // list shows it is loading, so the failure is told once, by page 1's own answer, and no alert
  // flashes in between.
  const leaving = error !== null && page !== 1;
  const failed = error !== null && !isFetching && !leaving;

  useEffect(() => {
    if (error && page !== 1) setPage(1, { replace: true });
    // Once per failure: only the failure moves the page back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);

  const nbOfPages = data?.nbOfPages ?? 0;
  useEffect(() => {
    if (!isPlaceholderData && !error && nbOfPages > 0 && page > nbOfPages) setPage(nbOfPages, { replace: true });
  }, [isPlaceholderData, error, nbOfPages, page, setPage]);

  const retry = () => void refetch();
  if (error || !data) {
    return {
      rows: [],
      total: 0,
      totalIsCapped: false,
      nbOfPages: 0,
      counts: { active: 0, archived: 0 },
      sums: {},
      known: false,
      // First load, or 'Réessayer' after a failure.
      loading: isPending || (error !== null && isFetching) || leaving,
      fetching: false,
      error: failed ? error : null,
      retry,
    };
  }
  return {
    rows: data.data as TPage['data'][number][],
    total: data.total,
    totalIsCapped: data.totalIsCapped === true,
    nbOfPages: data.nbOfPages,
    counts: { active: data.nbInActivity ?? 0, archived: data.nbOfArchived ?? 0 },
    sums: data.sums ?? {},
    known: true,
    loading: false,
    fetching: isFetching,
    error: null,
    retry,
  };
}

/**
 * Everything a register screen's list needs, from its declaration: the URL state (page, search,
 * sort, archive view, filters; every change but the page goes back to page 1, SPEC 4), the query
 * with the previous page kept, the counts, SPEC 8 on a failure, and ready props:
 *
 * ```tsx
 * const list = useRegisterList({ api: driversApi, sortColumns: DRIVER_SORT_COLUMNS, defaultSort: 'lastName' });
 * <SearchField {...list.searchField} label="Rechercher un conducteur" />
 * <ArchiveFilter {...list.archiveFilter} label="Statut des conducteurs" />
 * <RegisterTable {...list.table} {...DRIVERS_TABLE} empty={...} />
 * ```
 */
export function useRegisterList<TQuery, TPage extends RegisterPage<RegisterRecord>, TColumn extends string, TFilter extends string = never>(
  declaration: RegisterListDeclaration<TQuery, TPage, TColumn, TFilter>,
) {
  const { api, sortColumns, defaultSort, filters } = declaration;
  const params = useListSearchParams<TColumn, TFilter>({ sortColumns, defaultSort, filters });
  const { page, search, sortBy, archive, isFiltered, setPage, setSearch, setSortBy, setArchive } = params;
  const apiQuery = useMemo(
    () => toApiQuery<TQuery>({ page, search, sortBy, archive, filters: params.filters }),
    [page, search, sortBy, archive, params.filters],
  );
  const query = api.useList(apiQuery);
  const state = useListQueryState(query, params);

  return {
    ...params,
    ...state,
    apiQuery,
    /** RegisterTable's list props: rows, paging, sort, loading and error states, search. */
    table: {
      rows: state.rows,
      total: state.total,
      totalIsCapped: state.totalIsCapped,
      loading: state.loading,
      fetching: state.fetching,
      error: state.error,
      onRetry: state.retry,
      page,
      onPageChange: setPage,
      sortBy,
      onSortChange: setSortBy,
      search,
      isFiltered,
      onClearSearch: () => setSearch(''),
    },
    /** SearchField's value and onChange. */
    searchField: { value: search, onChange: setSearch },
    /** ArchiveFilter's value, onChange and counts ('Actifs (38)'); no counts for a register without them. */
    archiveFilter: { value: archive, onChange: setArchive, counts: api.archiveCounts ? state.counts : undefined },
  };
}
