import { VehiculeSchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { vehiculeKeys } from './get-vehicules';

export type ArchiveVehiculeInput = {
  uuid: string;
  /** The exit date recorded before archiving (YYYY-MM-DD); the API takes today without it. */
  exitDate?: string;
};

/** Soft delete: DELETE /api/vehicule/{uuid}?exitDate= sets the exit date, then archives. */
export function archiveVehicule({ uuid, exitDate }: ArchiveVehiculeInput) {
  return api(`/api/vehicule/${uuid}`, { method: 'DELETE', query: { exitDate }, schema: VehiculeSchema });
}

export function useArchiveVehicule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveVehicule,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: vehiculeKeys.all }),
  });
}
