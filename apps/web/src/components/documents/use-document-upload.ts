import { DOCUMENT_FILES_PER_UPLOAD, type DocumentItem } from '@flotte/contract';
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

/** 'rapport.pdf'; 'a.pdf, b.png'; 'a.pdf, b.png et 3 autres'. */
function what(files: readonly File[]): string {
  const names = files.slice(0, 2).map((file) => file.name);
  const others = files.length - names.length;
  return others > 0 ? `${names.join(', ')} et ${plural(others, 'autre')}` : names.join(', ');
}

/** Groups of at most `size`, in order. */
function batches<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  return groups;
}

/**
 * Sends files to a folder or a record with the loading snackbar's percent, then says what was
 * added or the API's French reason (a refused file names itself; nothing of its request is kept).
 * More files than a request takes (DOCUMENT_FILES_PER_UPLOAD) go in several requests, one after
 * the other, the percent counting all their bytes; a refusal stops there and says what was added
 * before it. Resolves with the documents made, or null when refused (already told).
 */
export function useDocumentUpload(): (target: UploadTarget, files: readonly File[]) => Promise<DocumentItem[] | null> {
  const queryClient = useQueryClient();
  return useCallback(
    async (target, files) => {
      if (files.length === 0) return null;
      const title = files.length === 1 ? 'Envoi du fichier' : `Envoi de ${plural(files.length, 'fichier')}`;
      let shown = snackbar.show({ type: 'loading', title, description: what(files), progress: 0 });
      const groups = batches(files, DOCUMENT_FILES_PER_UPLOAD);
      const totalBytes = Math.max(1, files.reduce((sum, file) => sum + file.size, 0));
      const made: DocumentItem[] = [];
      let sentBytes = 0;
      try {
        for (const group of groups) {
          const groupBytes = group.reduce((sum, file) => sum + file.size, 0);
          made.push(
            ...(await uploadDocuments(target, group, (percent) => {
              const overall = Math.min(100, Math.round(((sentBytes + (groupBytes * percent) / 100) / totalBytes) * 100));
              shown = snackbar.show({ type: 'loading', title: overall >= 100 ? 'Enregistrement…' : title, description: what(files), progress: overall });
            })),
          );
          sentBytes += groupBytes;
        }
        snackbar.hide(shown);
        snackbar.show({
          type: 'success',
          title: made.length === 1 ? 'Fichier ajouté' : `${plural(made.length, 'fichier ajouté', 'fichiers ajoutés')}`,
          description: made.length === 1 ? (made[0]!.media?.name ?? undefined) : undefined,
        });
        return made;
      } catch (error) {
        snackbar.hide(shown);
        const details = error instanceof ApiError ? error.details.map((detail) => detail.message).filter((message) => message !== error.serverMessage) : [];
        const reason = error instanceof ApiError ? [error.message, ...details].join(' ') : 'Le fichier n’a pas pu être envoyé.';
        snackbar.show({
          type: 'error',
          title: UPLOAD_ERROR,
          description:
            made.length === 0
              ? reason
              : `${reason} ${made.length === 1 ? 'Le premier fichier a été ajouté' : `Les ${made.length} premiers fichiers ont été ajoutés`} ; les suivants, non.`,
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
