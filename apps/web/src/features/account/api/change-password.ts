import { RefreshResponseSchema, type ChangePasswordBody, type RefreshResponse } from '@flotte/contract';
import { api } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-store';

/**
 * POST /api/auth/password: every session of the user ends (other devices included); this one
 * goes on with the new access token the API answers (and the new refresh cookie it sets).
 */
export async function changePassword(body: ChangePasswordBody): Promise<void> {
  const { tokens } = await api<RefreshResponse>('/api/auth/password', {
    method: 'POST',
    body,
    schema: import.meta.env.DEV ? RefreshResponseSchema : undefined,
  });
  authStore.setToken(tokens.access_token);
}
