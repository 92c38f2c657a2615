import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useListSearchParams } from '../../../components/register/use-list-search-params';

const NO_SORT = ['name'] as const;
const FILTERS = { parent: '' } as const;

export type GedParams = ReturnType<typeof useGedParams>;

/**
 * Where the GED screen is, in the URL (`?parent=…&search=…&page=…`): the back button leaves a
 * folder, a reload or a shared link opens the same one. Opening a folder is a navigation of its
 * own (a new history entry) that leaves any search and page behind.
 */
export function useGedParams() {
  const list = useListSearchParams<(typeof NO_SORT)[number], 'parent'>({ sortColumns: NO_SORT, defaultSort: 'name', filters: FILTERS });
  const [, setSearchParams] = useSearchParams();
  const parent = list.filters.parent || undefined;

  const openFolder = useCallback(
    (uuid: string | null) => {
      const next = new URLSearchParams();
      if (uuid) next.set('parent', uuid);
      setSearchParams(next, { preventScrollReset: true });
    },
    [setSearchParams],
  );

  return {
    /** The folder shown; undefined at the root (« Mes documents »). */
    parent,
    search: list.search,
    page: list.page,
    setPage: list.setPage,
    setSearch: list.setSearch,
    clearSearch: () => list.setSearch(''),
    openFolder,
  };
}
