import {
  CreateDriverBodySchema,
  DRIVER_SORT_COLUMNS,
  DriverPageSchema,
  DriverSchema,
  ListDriversQuerySchema,
  UpdateDriverBodySchema,
} from '@flotte/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { registerApi, type RegisterPage } from '../../lib/register-api';
import { makeDriver, registerPage } from '../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../test/mock-fetch';
import { renderWithProviders } from '../../test/render';
import { snackbar } from '../snackbar/snackbar';
import { toApiQuery, useListQueryState, useRegisterList } from './use-register-list';

type Row = { id: string };
const ROWS: Row[] = [{ id: '1' }, { id: '2' }];

/** The fields useListQueryState reads, as TanStack Query gives them once settled. */
function settled(data: RegisterPage<Row> | undefined, error: Error | null = null) {
  return {
    data,
    error,
    isPending: data === undefined && error === null,
    isFetching: false,
    isPlaceholderData: false,
    refetch: vi.fn(),
  } as unknown as UseQueryResult<RegisterPage<Row>, Error>;
}

function run(query: UseQueryResult<RegisterPage<Row>, Error>, page = 1) {
  const setPage = vi.fn();
  const { result } = renderHook(() => useListQueryState(query, { page, setPage }));
  return { state: result.current, setPage };
}

describe('useListQueryState', () => {
  it('gives the rows and an exact total when the API does not say the count is capped', () => {
    const { state } = run(settled(registerPage(ROWS, { total: 25 })));
    expect(state).toMatchObject({ rows: ROWS, total: 25, nbOfPages: 3, totalIsCapped: false, loading: false, error: null });
  });

  it('passes totalIsCapped on when the API capped the count', () => {
    const { state } = run(settled({ ...registerPage(ROWS, { total: 1000 }), totalIsCapped: true }));
    expect(state).toMatchObject({ total: 1000, nbOfPages: 100, totalIsCapped: true });
  });

  it('is not capped while loading nor after a failure', () => {
    expect(run(settled(undefined)).state).toMatchObject({ loading: true, total: 0, totalIsCapped: false });
    const failed = run(settled({ ...registerPage(ROWS, { total: 1000 }), totalIsCapped: true }, new Error('Service indisponible')));
    expect(failed.state).toMatchObject({ rows: [], total: 0, totalIsCapped: false, error: expect.any(Error) });
  });

  it('gives the archive counts, and 0 for them after a failure (SPEC 8)', () => {
    expect(run(settled(registerPage(ROWS, { nbInActivity: 38, nbOfArchived: 7 }))).state.counts).toEqual({ active: 38, archived: 7 });
    expect(run(settled(registerPage(ROWS, { nbInActivity: 38 }), new Error('x'))).state.counts).toEqual({ active: 0, archived: 0 });
  });

  it('says the counts are the server’s only once it has answered: not while loading, not after a failure', () => {
    expect(run(settled(registerPage(ROWS, { nbInActivity: 38, nbOfArchived: 7 }))).state.known).toBe(true);
    expect(run(settled(undefined)).state.known).toBe(false);
    expect(run(settled(registerPage(ROWS, { nbInActivity: 38 }), new Error('x'))).state.known).toBe(false);
  });

  it('goes back to page 1 after a failure, without a snackbar: the inline Alert tells it once', () => {
    const { setPage } = run(settled(undefined, new Error('Service indisponible')), 3);
    expect(setPage).toHaveBeenCalledWith(1, { replace: true });
    expect(snackbar.getCurrent()).toBeNull();
  });

  it('shows the list loading, not the failure, while it moves back to page 1: told once, by page 1', () => {
    const error = new Error('Service indisponible');
    const leaving = run(settled(undefined, error), 3);
    expect(leaving.state).toMatchObject({ rows: [], loading: true, error: null });
    expect(leaving.setPage).toHaveBeenCalledWith(1, { replace: true });
    expect(run(settled(undefined, error), 1).state).toMatchObject({ loading: false, error });
  });

  it('goes back to the last page when the page asked for is beyond it', () => {
    const { setPage } = run(settled(registerPage(ROWS, { total: 25, page: 5 })), 5);
    expect(setPage).toHaveBeenCalledWith(3, { replace: true });
  });
});

describe('toApiQuery', () => {
  const state = { page: 1, search: '', sortBy: 'lastName', archive: 'active' as const, filters: { types: '', startDate: '2025-01-01' } };

  it('sends the defaults the URL leaves out, and no empty filter', () => {
    // The API still needs the default date; an empty filter is left out.
    expect(toApiQuery(state)).toEqual({ page: 1, limit: 10, sortBy: 'lastName', startDate: '2025-01-01' });
  });

  it('names the archive view and the filters as the contract does', () => {
    expect(
      toApiQuery({ ...state, page: 3, search: 'dupont', sortBy: '-email', archive: 'archived', filters: { types: 'VP,VUL', startDate: '2025-01-01' } }),
    ).toEqual({ page: 3, limit: 10, search: 'dupont', sortBy: '-email', onlyArchived: 'true', types: 'VP,VUL', startDate: '2025-01-01' });
    expect(toApiQuery({ ...state, archive: 'all' })).toMatchObject({ withArchived: 'true' });
  });
});

describe('useRegisterList', () => {
  const drivers = registerApi('drivers', '/api/driver', {
    archiveCounts: true,
    schemas: { record: DriverSchema, page: DriverPageSchema, list: ListDriversQuerySchema, create: CreateDriverBodySchema, update: UpdateDriverBodySchema },
  });
  const useDriversList = () => useRegisterList({ api: drivers, sortColumns: DRIVER_SORT_COLUMNS, defaultSort: 'lastName' });

  function setup(url = '/drivers') {
    const onRender = vi.fn<(list: ReturnType<typeof useDriversList>) => void>();
    function Probe() {
      onRender(useDriversList());
      return null;
    }
    const { router, queryClient } = renderWithProviders(<Probe />, url);
    return { list: () => onRender.mock.lastCall![0], router, queryClient };
  }

  it('gives RegisterTable, SearchField and ArchiveFilter their props from the URL and the page', async () => {
    const driver = makeDriver();
    const { calls } = mockFetch([{ path: '/api/driver', body: registerPage([driver], { total: 38, nbInActivity: 38, nbOfArchived: 7 }) }]);
    const { list } = setup('/drivers?search=ecu&sortBy=-email');
    await waitFor(() => expect(list().loading).toBe(false));
    expect(list().table).toMatchObject({ rows: [driver], total: 38, page: 1, sortBy: '-email', search: 'ecu', isFiltered: true, error: null });
    expect(list().searchField.value).toBe('ecu');
    expect(list().archiveFilter).toMatchObject({ value: 'active', counts: { active: 38, archived: 7 } });
    expect(Object.fromEntries(new URL(calls[0]!.url).searchParams)).toEqual({ page: '1', limit: '10', sortBy: '-email', search: 'ecu' });

    act(() => list().table.onClearSearch());
    await waitFor(() => expect(list().search).toBe(''));
  });

  it('empties the list on a failure and says it once, inline', async () => {
    mockFetch([{ path: '/api/driver', status: 404, body: apiErrorBody(404, 'Organisation introuvable') }]);
    const { list, router } = setup('/drivers?page=4');
    await waitFor(() => expect(list().error?.message).toBe('Organisation introuvable'));
    expect(list().table).toMatchObject({ rows: [], total: 0 });
    expect(list().archiveFilter.counts).toEqual({ active: 0, archived: 0 });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(snackbar.getCurrent()).toBeNull();
  });

  it('sends back the ETag of the page it holds for that very query, and keeps that page on a 304', async () => {
    const driver = makeDriver();
    const { calls } = mockFetch([
      {
        path: '/api/driver',
        respond: (request) => {
          const page = new URL(request.url).searchParams.get('page');
          const etag = `"drivers-p${page}-v1"`;
          return request.headers.get('if-none-match') === etag
            ? { status: 304, headers: { etag } }
            : { body: registerPage([driver], { total: 38, page: Number(page) }), headers: { etag } };
        },
      },
    ]);
    const { list, router, queryClient } = setup();
    await waitFor(() => expect(list().loading).toBe(false));
    const rows = list().rows;
    expect(calls[0]!.headers.get('if-none-match')).toBeNull();

    // Stale (a write elsewhere, a remount): asked again with the ETag of the page held.
    await act(() => queryClient.invalidateQueries({ queryKey: drivers.keys.all }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.headers.get('if-none-match')).toBe('"drivers-p1-v1"');
    await waitFor(() => expect(list().fetching).toBe(false));
    // 304: the page held stays, the very same rows.
    expect(list().rows).toBe(rows);
    expect(list().table).toMatchObject({ total: 38, error: null });

    // Another query (page 2) holds nothing yet: no ETag of page 1 sent for it.
    await act(() => router.navigate('/drivers?page=2'));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(new URL(calls[2]!.url).searchParams.get('page')).toBe('2');
    expect(calls[2]!.headers.get('if-none-match')).toBeNull();
  });

  it('tries a read again after the Retry-After of an overloaded server (503)', async () => {
    const driver = makeDriver();
    const message = 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.';
    const times: number[] = [];
    mockFetch([
      {
        path: '/api/driver',
        respond: (_, call) => {
          times.push(Date.now());
          return call === 1 ? { status: 503, body: apiErrorBody(503, message), headers: { 'retry-after': '1' } } : { body: registerPage([driver]) };
        },
      },
    ]);
    const { list } = setup();
    await waitFor(() => expect(list().rows).toEqual([driver]), { timeout: 4000 });
    expect(times).toHaveLength(2);
    // Waited what the server asked, not TanStack's default second and not at once.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
    expect(list().error).toBeNull();
  });

  it('shows the French message of the 503 inline once the retries are spent, never a crash', async () => {
    const message = 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.';
    const { calls } = mockFetch([{ path: '/api/driver', status: 503, body: apiErrorBody(503, message), headers: { 'retry-after': '0' } }]);
    const { list } = setup();
    await waitFor(() => expect(list().error?.message).toBe(message));
    // The first try and two more.
    expect(calls).toHaveLength(3);
    expect(list().table).toMatchObject({ rows: [], total: 0 });
    expect(snackbar.getCurrent()).toBeNull();
  });
});
