import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { intentProps } from '../register/intent';
import { Menu, MenuItem, preloadMenu } from './lazy-menu';

function Owner({ onChoose }: { onChoose: (what: string) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <button type="button" aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)} {...intentProps(preloadMenu)}>
        Actions
      </button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onChoose('archiver');
          }}
        >
          Archiver
        </MenuItem>
        <MenuItem onClick={() => setAnchor(null)}>Supprimer</MenuItem>
      </Menu>
    </>
  );
}

describe('lazy Menu', () => {
  it('renders nothing before its first opening, then MUI’s menu with its items, keyboard-ready, and closes as MUI’s', async () => {
    const onChoose = vi.fn();
    const ui = userEvent.setup();
    renderWithProviders(<Owner onChoose={onChoose} />);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    await ui.hover(screen.getByRole('button', { name: 'Actions' }));
    await ui.click(screen.getByRole('button', { name: 'Actions' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Archiver', 'Supprimer']);
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Archiver' })).toHaveFocus());

    await ui.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await ui.click(screen.getByRole('button', { name: 'Actions' }));
    await ui.click(await screen.findByRole('menuitem', { name: 'Archiver' }));
    expect(onChoose).toHaveBeenCalledWith('archiver');
  });
});
