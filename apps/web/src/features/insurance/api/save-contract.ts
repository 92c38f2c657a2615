import type { InsuranceContract, SaveInsuranceContractBody } from '@flotte/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { contractKeys } from './get-contracts';

/** POST /api/contract/create-or-update: a new version; the history is read again. */
export function useSaveContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveInsuranceContractBody) => api<InsuranceContract>('/api/contract/create-or-update', { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: contractKeys.all }),
  });
}
