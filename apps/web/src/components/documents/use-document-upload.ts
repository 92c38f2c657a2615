import type { DocumentItem } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../../lib/api-error';
import { plural } from '../../lib/format';
import { snackbar } from '../snackbar/snackbar';
import { invalidateDocuments, uploadDocuments, type UploadTarget } from './documents-api';

/** What the browser accepts in a file picker: the formats the API takes (decision 030). */
export const DOCUMENT_ACCEPT = [
  '.pdf',
  '.jpg',
  '.jpeg',
  '.png',
  '.webp',
  '.heic',
  '.heif',
  '.docx',
  '.xlsx',
  '.pptx',
  '.odt',
  '.ods',
  '.odp',
  '.csv',
  'application/pdf',
  'image/*',
].join(',');

const UPLOAD_ERROR = 'Envoi impossible';

/** 'rapport.pdf' for one file, '3 fichiers' for several. */
function what(files: readonly File[]): string {
  return files.length === 1 ? files[0]!.name : plural(files.length, 'fichier');
}

/**
 * Sends files to a folder or a record with the loading snackbar's percent, then says what was
 * added or the API's French reason (a refused file names itself; nothing of the batch is kept).
 * Resolves with the documents made, or null when refused (already told).
 */
export function useDocumentUpload(): (target: UploadTarget, files: readonly File[]) => Promise<DocumentItem[] | null> {
  const queryClient = useQueryClient();
  return useCallback(
    async (target, files) => {
      if (files.length === 0) return null;
      const title = files.length === 1 ? 'Envoi du fichier' : `Envoi de ${plural(files.length, 'fichier')}`;
      let shown = snackbar.show({ type: 'loading', title, description: what(files), progress: 0 });
      try {
        const made = await uploadDocuments(target, files, (percent) => {
          const finishing = percent >= 100;
          shown = snackbar.show({ type: 'loading', title: finishing ? 'Enregistrement…' : title, description: what(files), progress: percent });
        });
        snackbar.hide(shown);
        snackbar.show({
          type: 'success',
          title: made.length === 1 ? 'Fichier ajouté' : `${plural(made.length, 'fichier ajouté', 'fichiers ajoutés')}`,
          description: made.length === 1 ? (made[0]!.media?.name ?? undefined) : undefined,
        });
        return made;
      } catch (error) {
        snackbar.hide(shown);
        const details = error instanceof ApiError ? error.details.map((detail) => detail.message).filter((message) => message !== error.message) : [];
        snackbar.show({
          type: 'error',
          title: UPLOAD_ERROR,
          description: error instanceof ApiError ? [error.message, ...details].join(' ') : 'Le fichier n’a pas pu être envoyé.',
          duration: 8000,
        });
        return null;
      } finally {
        invalidateDocuments(queryClient);
      }
    },
    [queryClient],
  );
}
