import type { CreateInsuranceIntermediaryBody, InsuranceIntermediary } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { intermediaryKeys } from './get-intermediaries';

/** POST /api/insurance-intermediary; the current one and the history are read again. */
export function useCreateIntermediary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInsuranceIntermediaryBody) => api<InsuranceIntermediary>('/api/insurance-intermediary', { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: intermediaryKeys.all }),
  });
}
