import { SinisterSchema, type UpdateSinisterBodySchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { sinisterKeys } from './get-sinisters';

export type UpdateSinisterInput = { uuid: string; body: z.output<typeof UpdateSinisterBodySchema> };

export function updateSinister({ uuid, body }: UpdateSinisterInput) {
  return api(`/api/sinister/${uuid}`, { method: 'PATCH', body, schema: SinisterSchema });
}

export function useUpdateSinister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSinister,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sinisterKeys.all }),
  });
}
