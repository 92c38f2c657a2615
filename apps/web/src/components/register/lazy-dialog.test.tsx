import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AddButton } from './add-button';
import { LazyConfirmDialog } from './lazy-confirm-dialog';
import { lazyComponent } from '../lazy-component';
import { LoadingContent, OpenedOnce } from './lazy-dialog';
import { RecordFormDialog } from './record-form-dialog';

function FakeForm({ onSaved }: { onSaved: () => void }) {
  return (
    <button type="button" onClick={onSaved}>
      Enregistrer
    </button>
  );
}

describe('lazyComponent', () => {
  it('fetches once, ahead of the click on hover, and renders the component in a dialog that keeps its title', async () => {
    let release!: () => void;
    const load = vi.fn(() => new Promise<typeof FakeForm>((resolve) => (release = () => resolve(FakeForm))));
    const Form = lazyComponent(load);
    function Owner() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <AddButton label="Ajouter un essai" onClick={() => setOpen(true)} onIntent={Form.preload} />
          <RecordFormDialog open={open} onClose={() => setOpen(false)} titles={{ add: 'Ajouter un essai', edit: 'Modifier l’essai' }}>
            {/* As RegisterDialogs does. */}
            {(_, close) => (
              <Suspense fallback={<LoadingContent />}>
                <Form onSaved={close} />
              </Suspense>
            )}
          </RecordFormDialog>
        </>
      );
    }
    const ui = userEvent.setup();
    renderWithProviders(<Owner />);
    expect(load).not.toHaveBeenCalled();

    await ui.hover(screen.getByRole('button', { name: 'Ajouter un essai' }));
    expect(load).toHaveBeenCalledTimes(1);
    await ui.click(screen.getByRole('button', { name: 'Ajouter un essai' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter un essai' });
    // Still on its way: the dialog's frame and title are there, a spinner stands for the form.
    expect(within(dialog).getByRole('status', { name: 'Chargement…' })).toBeInTheDocument();

    release();
    await ui.click(await within(dialog).findByRole('button', { name: 'Enregistrer' }));
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('<LazyConfirmDialog />', () => {
  it('is fetched when first opened, and focuses « Annuler »', async () => {
    function Owner() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Supprimer
          </button>
          <LazyConfirmDialog open={open} title="Supprimer définitivement l’essai ?" confirmLabel="Supprimer définitivement" onConfirm={() => setOpen(false)} onClose={() => setOpen(false)} />
        </>
      );
    }
    const ui = userEvent.setup();
    renderWithProviders(<Owner />);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Supprimer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Supprimer définitivement l’essai ?' });
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toHaveFocus();
  });
});

describe('<OpenedOnce /> while the dialog’s module is on its way', () => {
  function Owner({ load }: { load: () => Promise<(props: { open: boolean; onClose: () => void }) => React.JSX.Element | null> }) {
    const [open, setOpen] = useState(false);
    const [Late] = useState(() => lazyComponent(load));
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Ouvrir
        </button>
        <OpenedOnce open={open} onClose={() => setOpen(false)} title="Ajouter un essai">
          <Late open={open} onClose={() => setOpen(false)} />
        </OpenedOnce>
      </>
    );
  }
  /** As a MUI dialog: kept by OpenedOnce once opened, shown while `open`. */
  function Arrived({ open, onClose }: { open: boolean; onClose: () => void }) {
    if (!open) return null;
    return (
      <div role="dialog" aria-label="Ajouter un essai">
        <button type="button" onClick={onClose}>
          Fermer
        </button>
      </div>
    );
  }

  it('stands in with the title and a spinner, focused; Escape or a click beside it closes it; the focus goes back to the button', async () => {
    const ui = userEvent.setup();
    renderWithProviders(<Owner load={() => new Promise(() => undefined)} />);
    const opener = screen.getByRole('button', { name: 'Ouvrir' });

    await ui.click(opener);
    const standIn = screen.getByRole('dialog', { name: 'Ajouter un essai' });
    expect(standIn).toHaveAttribute('aria-busy', 'true');
    expect(within(standIn).getByRole('status', { name: 'Chargement…' })).toBeInTheDocument();
    expect(standIn).toHaveFocus();
    await ui.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await ui.click(opener);
    const backdrop = screen.getByRole('dialog', { name: 'Ajouter un essai' }).parentElement!;
    await ui.click(backdrop);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('gives way to the dialog once arrived, the focus handed back to the button first (the dialog then restores it there)', async () => {
    let release!: () => void;
    const load = () => new Promise<typeof Arrived>((resolve) => (release = () => resolve(Arrived)));
    const ui = userEvent.setup();
    renderWithProviders(<Owner load={load} />);
    const opener = screen.getByRole('button', { name: 'Ouvrir' });
    await ui.click(opener);
    expect(screen.getByRole('dialog', { name: 'Ajouter un essai' })).toHaveAttribute('aria-busy', 'true');

    release();
    const arrived = await screen.findByRole('button', { name: 'Fermer' });
    expect(screen.getByRole('dialog', { name: 'Ajouter un essai' })).not.toHaveAttribute('aria-busy');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(opener).toHaveFocus();
    await ui.click(arrived);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
