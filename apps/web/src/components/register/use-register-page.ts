import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { showActionError } from './register-actions';

/** What GET /api/driver, /api/vehicule and /api/sinister answer (the counts on archivable registers). */
export type RegisterPageData<TRow> = {
  data: TRow[];
  page: number;
  nbOfPages: number;
  total: number;
  /** True when a search or filter matched more than COUNT_CAP rows: `total` is then COUNT_CAP. */
  totalIsCapped?: boolean;
  nbOfArchived?: number;
  nbInActivity?: number;
};

export type RegisterPageState<TRow> = {
  rows: TRow[];
  total: number;
  /** `total` is a floor (COUNT_CAP), not the exact count: RegisterTable's `totalIsCapped`. False while unknown or after a failure. */
  totalIsCapped: boolean;
  nbOfPages: number;
  /** 0 while unknown or after a failure. */
  nbOfArchived: number;
  nbInActivity: number;
  /** No data to show yet: RegisterTable's `loading`. */
  loading: boolean;
  /** Showing the previous data while the next arrives: RegisterTable's `fetching`. */
  fetching: boolean;
  /** The failure of the list query: RegisterTable's `error` (the inline Alert). */
  error: Error | null;
  retry: () => void;
};

/**
 * Reads a register list query for RegisterTable and applies SPEC 8 on a failed fetch: the list
 * is emptied, the page goes back to 1, the counts to 0, and the error snackbar shows the API's
 * French message (the inline Alert comes from RegisterTable's `error`). It also brings back a
 * page beyond the last one (the last row of the last page was archived) to the last page.
 *
 * `query` must keep the previous data while the next page loads (placeholderData: keepPreviousData).
 */
export function useRegisterPage<TRow>(
  query: UseQueryResult<RegisterPageData<TRow>, Error>,
  list: { page: number; setPage: (page: number, options?: { replace?: boolean }) => void },
): RegisterPageState<TRow> {
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = query;
  const { page, setPage } = list;
  const failed = error !== null && !isFetching;

  useEffect(() => {
    if (!error) return;
    showActionError(error);
    if (page !== 1) setPage(1, { replace: true });
    // Once per failure: the page reset must not tell it twice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);

  const nbOfPages = data?.nbOfPages ?? 0;
  useEffect(() => {
    if (!isPlaceholderData && !error && nbOfPages > 0 && page > nbOfPages) setPage(nbOfPages, { replace: true });
  }, [isPlaceholderData, error, nbOfPages, page, setPage]);

  if (error || !data) {
    return {
      rows: [],
      total: 0,
      totalIsCapped: false,
      nbOfPages: 0,
      nbOfArchived: 0,
      nbInActivity: 0,
      // First load, or 'Réessayer' after a failure.
      loading: isPending || (error !== null && isFetching),
      fetching: false,
      error: failed ? error : null,
      retry: () => void refetch(),
    };
  }
  return {
    rows: data.data,
    total: data.total,
    totalIsCapped: data.totalIsCapped === true,
    nbOfPages: data.nbOfPages,
    nbOfArchived: data.nbOfArchived ?? 0,
    nbInActivity: data.nbInActivity ?? 0,
    loading: false,
    fetching: isFetching,
    error: null,
    retry: () => void refetch(),
  };
}
