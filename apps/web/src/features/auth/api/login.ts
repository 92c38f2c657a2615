import {
  LoginResponseSchema,
  LoginTotpResponseSchema,
  TotpSetupSchema,
  type LoginBody,
  type LoginChallenge,
  type LoginResponse,
  type LoginTotpBody,
  type LoginTotpResponse,
  type TotpSetup,
  type User,
} from '@flotte/contract';
import { api } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-store';

/** The user signed in, or the second step a user with two-factor sign-in must pass (decision 035). */
export type LoginOutcome = { user: User; challenge?: undefined } | { challenge: LoginChallenge; user?: undefined };

/**
 * POST /api/auth/login: stores the token and the user on success. The answer is typed by the
 * contract and checked against it in development and tests only (decision 015): the login page's
 * cold load carries no zod (issue 10).
 */
export async function login(body: LoginBody): Promise<LoginOutcome> {
  const answer = await api<LoginResponse>('/api/auth/login', {
    method: 'POST',
    body,
    schema: import.meta.env.DEV ? LoginResponseSchema : undefined,
    retryOnUnauthorized: false,
  });
  if ('challenge' in answer) return { challenge: answer };
  authStore.setSession(answer.tokens.access_token, answer.user);
  return { user: answer.user };
}

/**
 * POST /api/auth/login/totp: the second step. The session is not stored here: after a setup the
 * page first shows the recovery codes, then calls `enter`.
 */
export async function loginWithTotp(body: LoginTotpBody): Promise<{ recoveryCodes?: string[]; enter: () => void }> {
  const answer = await api<LoginTotpResponse>('/api/auth/login/totp', {
    method: 'POST',
    body,
    schema: import.meta.env.DEV ? LoginTotpResponseSchema : undefined,
    retryOnUnauthorized: false,
  });
  return { recoveryCodes: answer.recoveryCodes, enter: () => authStore.setSession(answer.tokens.access_token, answer.user) };
}

/** POST /api/auth/login/totp/setup: the key a superadmin must set up (a `setup` challenge). */
export function loginTotpSetup(challenge: string): Promise<TotpSetup> {
  return api<TotpSetup>('/api/auth/login/totp/setup', {
    method: 'POST',
    body: { challenge },
    schema: import.meta.env.DEV ? TotpSetupSchema : undefined,
    retryOnUnauthorized: false,
  });
}
