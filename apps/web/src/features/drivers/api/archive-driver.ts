import { DriverSchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { driverKeys } from './get-drivers';

/** Soft delete: DELETE /api/driver/{uuid} answers the archived driver. */
export function archiveDriver(uuid: string) {
  return api(`/api/driver/${uuid}`, { method: 'DELETE', schema: DriverSchema });
}

export function useArchiveDriver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveDriver,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: driverKeys.all }),
  });
}
