import { DriverSchema, type CreateDriverBodySchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { driverKeys } from './get-drivers';

export type CreateDriverInput = z.output<typeof CreateDriverBodySchema>;

export function createDriver(body: CreateDriverInput) {
  return api('/api/driver', { method: 'POST', body, schema: DriverSchema });
}

export function useCreateDriver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDriver,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: driverKeys.all }),
  });
}
