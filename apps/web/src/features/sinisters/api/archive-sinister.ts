import { SinisterSchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sinisterKeys } from './get-sinisters';

/** Soft delete: DELETE /api/sinister/{uuid} answers the archived claim. */
export function archiveSinister(uuid: string) {
  return api(`/api/sinister/${uuid}`, { method: 'DELETE', schema: SinisterSchema });
}

export function useArchiveSinister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveSinister,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sinisterKeys.all }),
  });
}
