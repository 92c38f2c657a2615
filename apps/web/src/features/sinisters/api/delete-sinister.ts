import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sinisterKeys } from './get-sinisters';

/** Permanent deletion (204), for administrators only: the API answers 403 to anyone else. */
export function deleteSinister(uuid: string) {
  return api(`/api/sinister/${uuid}/hard`, { method: 'DELETE' });
}

export function useDeleteSinister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSinister,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sinisterKeys.all }),
  });
}
