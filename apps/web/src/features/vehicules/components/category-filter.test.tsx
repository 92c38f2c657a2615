import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MuiProviders } from '../../../app/providers';
import { CategoryFilter, parseTypes } from './category-filter';

function Filter({ initial = '', onChange }: { initial?: string; onChange: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <MuiProviders>
      <CategoryFilter
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
      />
    </MuiProviders>
  );
}

describe('<CategoryFilter />', () => {
  // MUI's select takes seconds to import in jsdom on a busy machine: fetched once, up front, so
  // the tests time the component rather than the import.
  beforeAll(() => import('./category-select'), 60_000);

  it('shows the choice in a plain stand-in until the first interaction', () => {
    render(<Filter initial="VP,VUL,XX" onChange={() => undefined} />);
    const box = screen.getByRole('combobox', { name: 'Catégories' });
    expect(box).toHaveTextContent('VP, VUL');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('opens the MUI select from the keyboard, focused, and writes the choice in the categories’ order', async () => {
    const ui = userEvent.setup();
    const onChange = vi.fn();
    render(<Filter onChange={onChange} />);
    expect(screen.getByRole('combobox', { name: 'Catégories' })).toHaveTextContent('Toutes');
    await ui.tab();
    await ui.keyboard('{ArrowDown}');
    const listbox = await screen.findByRole('listbox');
    await ui.click(within(listbox).getByRole('option', { name: 'PL (poids lourd > 3,5 t)' }));
    await ui.click(within(listbox).getByRole('option', { name: 'VP (véhicule particulier)' }));
    expect(onChange).toHaveBeenLastCalledWith('VP,PL');
    await ui.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    const select = screen.getByRole('combobox', { name: 'Catégories' });
    expect(select).toHaveTextContent('VP, PL');
    expect(select).toHaveFocus();
  }, 45_000);

  it('reads the URL’s codes, leaving unknown ones out', () => {
    expect(parseTypes('VP,XX,PL')).toEqual(['VP', 'PL']);
    expect(parseTypes('')).toEqual([]);
  });
});
