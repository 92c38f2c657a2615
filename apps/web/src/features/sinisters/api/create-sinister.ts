import { SinisterSchema, type CreateSinisterBodySchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { sinisterKeys } from './get-sinisters';

export type CreateSinisterInput = z.output<typeof CreateSinisterBodySchema>;

export function createSinister(body: CreateSinisterInput) {
  return api('/api/sinister', { method: 'POST', body, schema: SinisterSchema });
}

export function useCreateSinister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSinister,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sinisterKeys.all }),
  });
}
