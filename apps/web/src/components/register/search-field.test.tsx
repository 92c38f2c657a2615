import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { SearchField } from './search-field';
import { useListSearchParams } from './use-list-search-params';

function Search() {
  const list = useListSearchParams({ sortColumns: ['lastName'], defaultSort: 'lastName' });
  return <SearchField value={list.search} onChange={list.setSearch} label="Rechercher un conducteur" />;
}

function setup(url = '/drivers') {
  const { router } = renderWithProviders(<Search />, url);
  const box = screen.getByRole('searchbox', { name: 'Rechercher un conducteur' });
  return { router, box, search: () => new URLSearchParams(router.state.location.search).get('search') };
}

describe('<SearchField />', () => {
  it('waits for a pause, and keeps typing smooth across it', async () => {
    const ui = userEvent.setup();
    const { box, search } = setup();
    // Quick keystrokes (synchronous, so well within the 300 ms whatever the machine's load).
    for (const text of ['j', 'je', 'jea', 'jean', 'jean ']) fireEvent.change(box, { target: { value: text } });
    expect(search()).toBeNull();
    await waitFor(() => expect(search()).toBe('jean'));
    // The trimmed search came back from the URL: the space typed is still there.
    await ui.type(box, 'dupont');
    expect(box).toHaveValue('jean dupont');
    await waitFor(() => expect(search()).toBe('jean dupont'));
  });

  it('searches at once on Enter and clears with its button', async () => {
    const ui = userEvent.setup();
    const { box, search } = setup();
    await ui.type(box, 'martin{Enter}');
    expect(search()).toBe('martin');
    await ui.click(screen.getByRole('button', { name: 'Effacer la recherche' }));
    expect(box).toHaveValue('');
    expect(search()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Effacer la recherche' })).not.toBeInTheDocument();
  });

  it('follows the URL when it changes elsewhere (a link, the back button)', async () => {
    const { box, router } = setup('/drivers?search=dupont');
    expect(box).toHaveValue('dupont');
    await act(() => router.navigate('/drivers?search=martin'));
    expect(box).toHaveValue('martin');
    await act(() => router.navigate(-1));
    expect(box).toHaveValue('dupont');
  });
});
