import { SinisterSchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sinisterKeys } from './get-sinisters';

export function restoreSinister(uuid: string) {
  return api(`/api/sinister/restore/${uuid}`, { method: 'POST', schema: SinisterSchema });
}

export function useRestoreSinister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreSinister,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sinisterKeys.all }),
  });
}
