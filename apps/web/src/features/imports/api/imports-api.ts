import {
  type ImportCommitBody,
  type ImportCounts,
  type ImportEntity,
  type ImportPreview,
  type ImportRevert,
  type ImportSummary,
  type ImportValidateBody,
  type ImportValidation,
  ImportListSchema,
} from '@flotte/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/api-download';
import { invalidateAfterWrite, queryKeys, type RegisterName } from '../../../lib/query-keys';
import { apiUpload } from '../../../lib/api-upload';

// The import API (issue 13, decision on imports): preview (the file, uploaded with its percent),
// validate, commit, revert. Answers are typed by the contract; the server checks them.

/** POST /api/import/{entity}/preview with the file; `onProgress` gets the upload's percent; `sheet`: the XLSX sheet to read. */
export function uploadImportFile(entity: ImportEntity, file: File, onProgress: (percent: number) => void, sheet?: string): Promise<ImportPreview> {
  const path = `/api/import/${entity}/preview${sheet === undefined ? '' : `?sheet=${encodeURIComponent(sheet)}`}`;
  return apiUpload<ImportPreview>(path, [file], { field: 'file', onProgress, tooLarge: 'Le fichier dépasse 20 Mo.' });
}

export const validateImport = (importId: string, body: ImportValidateBody) =>
  api<ImportValidation>(`/api/import/${importId}/validate`, { method: 'POST', body });

export type ImportCommitResult = ImportCounts & { importId: string; status: ImportSummary['status'] };

export const commitImport = (importId: string, body: ImportCommitBody) =>
  api<ImportCommitResult>(`/api/import/${importId}/commit`, { method: 'POST', body, idempotent: true });

export const getImport = (importId: string) => api<ImportSummary>(`/api/import/${importId}`);

/** GET /api/import/{id}/errors: every error of the last validation, as a CSV the browser saves. */
export async function downloadImportErrors(importId: string): Promise<void> {
  await downloadFile(`/api/import/${importId}/errors`, { accept: 'text/csv', fallbackName: 'erreurs-import.csv' });
}

export const revertImport = (importId: string) => api<ImportRevert>(`/api/import/${importId}/revert`, { method: 'POST', idempotent: true });

/** The register an import writes to. */
export const IMPORT_REGISTERS: Record<ImportEntity, RegisterName> = { driver: 'drivers', vehicule: 'vehicules', sinister: 'sinisters' };

const dev = import.meta.env.DEV;

/** GET /api/import: the organization's last 100 imports, newest first (/parameters' history). */
export function importsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.imports.list(),
    queryFn: ({ signal }) => api<{ data: ImportSummary[] }>('/api/import', { schema: dev ? ImportListSchema : undefined, signal }),
    select: (answer) => answer.data,
  });
}

export const useImports = () => useQuery(importsQueryOptions());

/** « Annuler l'import » from the history: the import's register and the history are stale after it. */
export function useRevertImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (summary: Pick<ImportSummary, 'importId' | 'entity'>) => revertImport(summary.importId),
    onSettled: (_data, _error, summary) => {
      invalidateAfterWrite(queryClient, IMPORT_REGISTERS[summary.entity]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.imports.all });
    },
  });
}
