import type { UseQueryResult } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { registerPage } from '../../test/fixtures';
import { useRegisterPage, type RegisterPageData } from './use-register-page';

type Row = { id: string };
const ROWS: Row[] = [{ id: '1' }, { id: '2' }];

/** The fields useRegisterPage reads, as TanStack Query gives them once settled. */
function settled(data: RegisterPageData<Row> | undefined, error: Error | null = null) {
  return {
    data,
    error,
    isPending: data === undefined && error === null,
    isFetching: false,
    isPlaceholderData: false,
    refetch: vi.fn(),
  } as unknown as UseQueryResult<RegisterPageData<Row>, Error>;
}

function run(query: UseQueryResult<RegisterPageData<Row>, Error>, page = 1) {
  const setPage = vi.fn();
  const { result } = renderHook(() => useRegisterPage(query, { page, setPage }));
  return { state: result.current, setPage };
}

describe('useRegisterPage', () => {
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
});
