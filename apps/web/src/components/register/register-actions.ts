import { ApiError } from '../../lib/api-error';
import { snackbar } from '../snackbar/snackbar';

const FALLBACK = 'Une erreur est survenue. Veuillez réessayer.';

/** A failed action (STYLE habit 8: the snackbar): 'Erreur' and the API's French message. */
export function showActionError(error: unknown, fallback = FALLBACK) {
  // A network failure is an ApiError too (status 0) with its own French message.
  const description = error instanceof ApiError ? error.message : fallback;
  snackbar.show({ type: 'error', title: 'Erreur', description });
}

export type ArchiveWithUndoOptions = {
  /** Archives the row (the feature's mutation; it refreshes the list). */
  archive: () => Promise<unknown>;
  /** Brings it back; without it the snackbar has no 'Annuler'. */
  restore?: () => Promise<unknown>;
  /** e.g. 'Conducteur archivé'. */
  archivedTitle: string;
  /** e.g. 'Élodie Écuyer ne figure plus parmi les conducteurs actifs.' */
  archivedDescription?: string;
  /** After 'Annuler', e.g. 'Conducteur restauré'. */
  restoredTitle: string;
  restoredDescription?: string;
};

/**
 * The archive flow of every register: archive, then a success snackbar whose 'Annuler' restores
 * the row (the mutations refresh the list). A failure shows the error snackbar.
 * Resolves true once archived.
 */
export async function archiveWithUndo(options: ArchiveWithUndoOptions): Promise<boolean> {
  const { archive, restore, archivedTitle, archivedDescription, restoredTitle, restoredDescription } = options;
  try {
    await archive();
  } catch (error) {
    showActionError(error);
    return false;
  }
  snackbar.show({
    type: 'success',
    title: archivedTitle,
    description: archivedDescription,
    // Long enough to find the button.
    duration: restore ? 6000 : undefined,
    undo: restore
      ? () => {
          restore().then(
            () => snackbar.show({ type: 'success', title: restoredTitle, description: restoredDescription }),
            (error: unknown) => showActionError(error),
          );
        }
      : undefined,
  });
  return true;
}
