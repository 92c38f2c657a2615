import { LoginSessionSchema, SignupResponseSchema, type LoginSession, type SignupBody, type User } from '@flotte/contract';
import { api } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-store';

// Signup and e-mail confirmation (issue 15, decision 033): no session yet, so no refresh on a 401.
const dev = import.meta.env.DEV;

/** POST /api/auth/signup: the same answer whether the address already had an account or not. */
export async function signup(body: SignupBody): Promise<string> {
  const answer = await api<{ message: string }>('/api/auth/signup', { method: 'POST', body, schema: dev ? SignupResponseSchema : undefined, retryOnUnauthorized: false });
  return answer.message;
}

/** POST /api/auth/signup/resend: another link, rate-limited; the same answer for any address. */
export async function resendConfirmation(email: string): Promise<string> {
  const answer = await api<{ message: string }>('/api/auth/signup/resend', { method: 'POST', body: { email }, schema: dev ? SignupResponseSchema : undefined, retryOnUnauthorized: false });
  return answer.message;
}

/** POST /api/auth/signup/confirm: confirms the address with the link, once, and opens the session (as a login). */
export async function confirmSignup(token: string, signal?: AbortSignal): Promise<User> {
  const { tokens, user } = await api<LoginSession>('/api/auth/signup/confirm', { method: 'POST', body: { token }, signal, schema: dev ? LoginSessionSchema : undefined, retryOnUnauthorized: false });
  authStore.setSession(tokens.access_token, user);
  return user;
}
