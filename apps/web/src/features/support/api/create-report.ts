import type { CreateReportBody } from '@flotte/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function createReport(body: CreateReportBody): Promise<void> {
  return api('/api/report', { method: 'POST', body });
}

export function useCreateReport() {
  return useMutation({ mutationFn: createReport });
}
