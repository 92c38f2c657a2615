import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { driverKeys } from './get-drivers';

/** Permanent deletion (204), for administrators only: the API answers 403 to anyone else. */
export function deleteDriver(uuid: string) {
  return api(`/api/driver/${uuid}/hard`, { method: 'DELETE' });
}

export function useDeleteDriver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDriver,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: driverKeys.all }),
  });
}
