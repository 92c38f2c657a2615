import { VehiculeSchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { vehiculeKeys } from './get-vehicules';

/** Back in the fleet (the exit date is kept); 409 when an active vehicle took its plate meanwhile. */
export function restoreVehicule(uuid: string) {
  return api(`/api/vehicule/restore/${uuid}`, { method: 'POST', schema: VehiculeSchema });
}

export function useRestoreVehicule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreVehicule,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: vehiculeKeys.all }),
  });
}
