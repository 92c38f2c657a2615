import { DriverSchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { driverKeys } from './get-drivers';

export function restoreDriver(uuid: string) {
  return api(`/api/driver/restore/${uuid}`, { method: 'POST', schema: DriverSchema });
}

export function useRestoreDriver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreDriver,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: driverKeys.all }),
  });
}
