import { RecoveryRequestResponseSchema, RecoveryTokenResponseSchema, type RecoveryPasswordBody, type RecoveryTokenResponse } from '@flotte/contract';
import { api } from '../../../lib/api-client';

// Account recovery (issue 15): no session here; a 401 is never answered, so no refresh either.
const dev = import.meta.env.DEV;

/** POST /api/auth/recover: the same answer whether the address has an account or not. */
export async function requestRecovery(email: string): Promise<string> {
  const answer = await api('/api/auth/recover', { method: 'POST', body: { email }, schema: dev ? RecoveryRequestResponseSchema : undefined, retryOnUnauthorized: false });
  return (answer as { message: string }).message;
}

/** POST /api/auth/recover/check: whether the link still works, and for which (half-hidden) address. */
export function checkRecoveryLink(token: string, signal?: AbortSignal): Promise<RecoveryTokenResponse> {
  return api<RecoveryTokenResponse>('/api/auth/recover/check', { method: 'POST', body: { token }, signal, schema: dev ? RecoveryTokenResponseSchema : undefined, retryOnUnauthorized: false });
}

/** POST /api/auth/recover/password: sets the new password with the link, once. */
export function resetPassword(body: RecoveryPasswordBody): Promise<void> {
  return api('/api/auth/recover/password', { method: 'POST', body, retryOnUnauthorized: false });
}
