import { act } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { nextSort, parseSortBy, useListSearchParams, type ListSearchParams } from './use-list-search-params';

const COLUMNS = ['lastName', 'firstName', 'email'] as const;
type Column = (typeof COLUMNS)[number];
type Filter = 'types' | 'startDate';

function setup(url: string) {
  const onRender = vi.fn<(list: ListSearchParams<Column, Filter>) => void>();
  function Probe() {
    onRender(
      useListSearchParams({ sortColumns: COLUMNS, defaultSort: 'lastName', filters: { types: '', startDate: '2025-01-01' } }),
    );
    return null;
  }
  const { router } = renderWithProviders(<Probe />, url);
  return {
    router,
    list: () => onRender.mock.lastCall![0],
    url: () => `${router.state.location.pathname}${router.state.location.search}`,
    params: () => new URLSearchParams(router.state.location.search),
  };
}

describe('useListSearchParams', () => {
  it('gives the defaults for a bare URL and keeps them out of it', () => {
    const { list, url } = setup('/drivers');
    expect(list()).toMatchObject({
      page: 1,
      search: '',
      sortBy: 'lastName',
      archive: 'active',
      filters: { types: '', startDate: '2025-01-01' },
      isFiltered: false,
    });
    expect(url()).toBe('/drivers');
  });

  it('reads a shared link', () => {
    const { list } = setup('/drivers?page=3&search=dupont&sortBy=-email&archived=only&types=VP,VUL');
    expect(list()).toMatchObject({ page: 3, search: 'dupont', sortBy: '-email', archive: 'archived', isFiltered: true });
    expect(list().filters).toEqual({ types: 'VP,VUL', startDate: '2025-01-01' });
    expect(setup('/drivers?archived=all').list().archive).toBe('all');
  });

  it('ignores values it cannot use', () => {
    const { list } = setup('/drivers?page=abc&sortBy=password&archived=maybe');
    expect(list()).toMatchObject({ page: 1, sortBy: 'lastName', archive: 'active', isFiltered: false });
    expect(setup('/drivers?page=0').list().page).toBe(1);
    expect(setup('/drivers?page=-2').list().page).toBe(1);
  });

  it('changes the page without touching the rest, and leaves page 1 out', () => {
    const { list, url } = setup('/drivers?search=dupont&sortBy=email');
    act(() => list().setPage(2));
    expect(url()).toBe('/drivers?search=dupont&sortBy=email&page=2');
    expect(list().page).toBe(2);
    act(() => list().setPage(1));
    expect(url()).toBe('/drivers?search=dupont&sortBy=email');
  });

  it.each([
    ['search', (list: ListSearchParams<Column, Filter>) => list.setSearch('martin'), 'search=martin'],
    ['sort', (list: ListSearchParams<Column, Filter>) => list.setSortBy('-firstName'), 'sortBy=-firstName'],
    ['archive filter', (list: ListSearchParams<Column, Filter>) => list.setArchive('archived'), 'archived=only'],
    ['extra filter', (list: ListSearchParams<Column, Filter>) => list.setFilter('types', 'PL'), 'types=PL'],
    ['dates', (list: ListSearchParams<Column, Filter>) => list.setFilters({ startDate: '2024-06-01' }), 'startDate=2024-06-01'],
  ])('goes back to page 1 when the %s changes', (_, change, expected) => {
    const { list, params } = setup('/drivers?page=4');
    act(() => change(list()));
    expect(params().get('page')).toBeNull();
    expect(params().toString()).toContain(expected);
    expect(list().page).toBe(1);
  });

  it('keeps a change made before the screen caught up with the previous one', () => {
    // A toggle, then the guarantee at once, while the list of the toggle still loads: the second
    // change is made from a render that has not seen the first.
    const { list, url } = setup('/sinisters?page=2');
    const stale = list();
    act(() => stale.setFilter('types', 'PL'));
    act(() => stale.setSortBy('-email'));
    act(() => stale.setSearch('dup'));
    expect(url()).toBe('/sinisters?types=PL&sortBy=-email&search=dup');
    act(() => {
      const again = list();
      again.setFilter('types', '');
      again.setFilters({ startDate: '2024-06-01' });
    });
    expect(url()).toBe('/sinisters?sortBy=-email&search=dup&startDate=2024-06-01');
    expect(list()).toMatchObject({ sortBy: '-email', search: 'dup', filters: { types: '', startDate: '2024-06-01' } });
  });

  it('writes a default back as nothing', () => {
    const { list, url } = setup('/drivers?sortBy=-lastName&archived=only&types=PL&startDate=2024-06-01&search=x');
    act(() => list().setSortBy('lastName'));
    act(() => list().setArchive('active'));
    act(() => list().setFilters({ types: '', startDate: '2025-01-01' }));
    act(() => list().setSearch('   '));
    expect(url()).toBe('/drivers');
    expect(list().isFiltered).toBe(false);
  });

  it('restores the previous view with the back button', async () => {
    const { list, url, router } = setup('/drivers');
    act(() => list().setSortBy('-email'));
    act(() => list().setPage(3));
    expect(url()).toBe('/drivers?sortBy=-email&page=3');
    await act(() => router.navigate(-1));
    expect(list()).toMatchObject({ sortBy: '-email', page: 1 });
    await act(() => router.navigate(-1));
    expect(list()).toMatchObject({ sortBy: 'lastName', page: 1 });
    expect(url()).toBe('/drivers');
  });

  it('pushes a new search but replaces the entry while it is refined', () => {
    const { list, router } = setup('/drivers');
    act(() => list().setSearch('dup'));
    expect(router.state.historyAction).toBe('PUSH');
    act(() => list().setSearch('dupont'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(list().search).toBe('dupont');
  });

  it('clears search and filters but keeps the sort', () => {
    const { list, url } = setup('/drivers?sortBy=email&search=x&archived=only&types=VP&page=2');
    act(() => list().clearFilters());
    expect(url()).toBe('/drivers?sortBy=email');
  });
});

describe('sort helpers', () => {
  it('sorts a new column ascending, then flips it', () => {
    expect(nextSort<Column>('lastName', 'email')).toBe('email');
    expect(nextSort<Column>('email', 'email')).toBe('-email');
    expect(nextSort<Column>('-email', 'email')).toBe('email');
    expect(parseSortBy<Column>('-email')).toEqual({ column: 'email', direction: 'desc' });
    expect(parseSortBy<Column>('lastName')).toEqual({ column: 'lastName', direction: 'asc' });
  });
});
