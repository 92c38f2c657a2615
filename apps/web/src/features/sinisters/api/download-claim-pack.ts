import { snackbar } from '../../../components/snackbar/snackbar';
import { downloadFile } from '../../../lib/api-download';

/**
 * « Télécharger le dossier »: the claim's pack (GET /api/sinister/{uuid}/pack, a ZIP of its
 * summary and files, built and streamed by the API) saved under the name the API gives.
 */
export async function downloadClaimPack(sinister: { uuid: string }): Promise<void> {
  const loading = snackbar.show({ type: 'loading', title: 'Préparation du dossier…', description: 'Résumé du sinistre et pièces jointes' });
  try {
    const fileName = await downloadFile(`/api/sinister/${sinister.uuid}/pack`, { accept: 'application/zip', fallbackName: 'Sinistre.zip' });
    snackbar.show({ type: 'success', title: 'Dossier téléchargé', description: fileName ?? undefined });
  } catch (error) {
    snackbar.hide(loading);
    snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof Error && error.message ? error.message : 'Le dossier du sinistre n’a pas pu être téléchargé' });
  }
}
