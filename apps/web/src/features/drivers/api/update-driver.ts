import { DriverSchema, type UpdateDriverBodySchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { driverKeys } from './get-drivers';

export type UpdateDriverInput = { uuid: string; body: z.output<typeof UpdateDriverBodySchema> };

export function updateDriver({ uuid, body }: UpdateDriverInput) {
  return api(`/api/driver/${uuid}`, { method: 'PATCH', body, schema: DriverSchema });
}

export function useUpdateDriver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDriver,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: driverKeys.all }),
  });
}
