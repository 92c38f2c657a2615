import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { snackbar } from '../snackbar/snackbar';
import { archiveWithUndo, showActionError } from './register-actions';

const labels = { archivedTitle: 'Conducteur archivé', restoredTitle: 'Conducteur restauré' };

describe('register actions', () => {
  it('archives, then offers an undo that restores', async () => {
    const restore = vi.fn().mockResolvedValue(undefined);
    expect(await archiveWithUndo({ ...labels, archive: () => Promise.resolve(), restore })).toBe(true);
    const shown = snackbar.getCurrent();
    expect(shown).toMatchObject({ type: 'success', title: 'Conducteur archivé' });

    shown?.undo?.();
    expect(restore).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(snackbar.getCurrent()?.title).toBe('Conducteur restauré'));
  });

  it('tells a failed archive or a failed undo with the API message', async () => {
    const failed = new ApiError(404, 'Conducteur introuvable', 'Not Found');
    expect(await archiveWithUndo({ ...labels, archive: () => Promise.reject(failed) })).toBe(false);
    expect(snackbar.getCurrent()).toMatchObject({ type: 'error', title: 'Erreur', description: 'Conducteur introuvable' });

    await archiveWithUndo({ ...labels, archive: () => Promise.resolve(), restore: () => Promise.reject(failed) });
    snackbar.getCurrent()?.undo?.();
    await vi.waitFor(() => expect(snackbar.getCurrent()).toMatchObject({ type: 'error', description: 'Conducteur introuvable' }));
  });

  it('adds the reference of a server error, for the user to quote to support', () => {
    showActionError(new ApiError(500, 'Une erreur interne est survenue. Veuillez réessayer.', 'Internal Server Error', [], null, 'hT3x_9Qa-Lm2Zp0w'));
    expect(snackbar.getCurrent()).toMatchObject({
      type: 'error',
      title: 'Erreur',
      description: 'Une erreur interne est survenue. Veuillez réessayer. Référence : hT3x_9Qa-Lm2Zp0w',
    });
  });

  it('does not offer an undo without a restore', async () => {
    await archiveWithUndo({ ...labels, archive: () => Promise.resolve() });
    expect(snackbar.getCurrent()?.undo).toBeUndefined();
  });

  it('falls back to a French message for an unexpected error', () => {
    showActionError(new TypeError('x is undefined'));
    expect(snackbar.getCurrent()).toMatchObject({ title: 'Erreur', description: 'Une erreur est survenue. Veuillez réessayer.' });
  });
});
