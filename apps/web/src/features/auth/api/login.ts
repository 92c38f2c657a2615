import { LoginResponseSchema, type LoginBody, type LoginResponse, type User } from '@flotte/contract';
import { api } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-store';

/**
 * POST /api/auth/login: stores the token and the user on success. The answer is typed by the
 * contract and checked against it in development and tests only (decision 015): the login page's
 * cold load carries no zod (issue 10).
 */
export async function login(body: LoginBody): Promise<User> {
  const { tokens, user } = await api<LoginResponse>('/api/auth/login', {
    method: 'POST',
    body,
    schema: import.meta.env.DEV ? LoginResponseSchema : undefined,
    retryOnUnauthorized: false,
  });
  authStore.setSession(tokens.access_token, user);
  return user;
}
