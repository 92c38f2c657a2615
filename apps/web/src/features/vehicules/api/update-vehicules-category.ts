import { UpdateCategoryResponseSchema, type UpdateCategoryQuerySchema, type VehiculeTypeCode } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { invalidateAfterWrite } from '../../../lib/query-keys';

/** The list's filters without its page and sort: what the bulk change applies to. */
export type VehiculesFilters = z.input<typeof UpdateCategoryQuerySchema>;

export function vehiculesFilters(query: VehiculesFilters): VehiculesFilters {
  const { search, withArchived, onlyArchived, types, start, end } = query;
  return { search, withArchived, onlyArchived, types, start, end };
}

export type UpdateVehiculesCategoryInput = { type: VehiculeTypeCode; filters: VehiculesFilters };

/** PATCH /api/vehicule/category/{type}?<filters>: every vehicle the filters match changes category. */
export function updateVehiculesCategory({ type, filters }: UpdateVehiculesCategoryInput) {
  return api(`/api/vehicule/category/${type}`, { method: 'PATCH', query: filters, schema: import.meta.env.DEV ? UpdateCategoryResponseSchema : undefined });
}

export function useUpdateVehiculesCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVehiculesCategory,
    onSuccess: () => invalidateAfterWrite(queryClient, 'vehicules'),
  });
}
