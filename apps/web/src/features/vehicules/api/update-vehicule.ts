import { VehiculeSchema, type UpdateVehiculeBodySchema } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { vehiculeKeys } from './get-vehicules';

export type UpdateVehiculeInput = { uuid: string; body: z.output<typeof UpdateVehiculeBodySchema> };

/** PATCH /api/vehicule/{uuid}: edits a vehicle, or completes a draft from create-empty. 409 when the plate is taken. */
export function updateVehicule({ uuid, body }: UpdateVehiculeInput) {
  return api(`/api/vehicule/${uuid}`, { method: 'PATCH', body, schema: VehiculeSchema });
}

export function useUpdateVehicule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVehicule,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: vehiculeKeys.all }),
  });
}
