import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { vehiculeKeys } from './get-vehicules';

/** Permanent deletion (204), for administrators only: the API answers 403 to anyone else. */
export function deleteVehicule(uuid: string) {
  return api(`/api/vehicule/${uuid}/hard`, { method: 'DELETE' });
}

export function useDeleteVehicule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVehicule,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: vehiculeKeys.all }),
  });
}
