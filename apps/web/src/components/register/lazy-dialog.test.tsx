import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AddButton } from './add-button';
import { LazyConfirmDialog } from './lazy-confirm-dialog';
import { lazyComponent } from '../lazy-component';
import { LoadingContent } from './lazy-dialog';
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
