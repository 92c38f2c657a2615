import type { LoginBody, User } from '@flotte/contract';
import { api, type ApiOptions } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-store';

// The login page's cold load carries no zod (issue 10): the answer is checked by hand, for what
// the page uses of it (a token, a user), instead of by the contract's LoginResponseSchema.

type LoginAnswer = { tokens: { access_token: string }; user: User };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLoginAnswer(value: unknown): value is LoginAnswer {
  return (
    isRecord(value) &&
    isRecord(value.tokens) &&
    typeof value.tokens.access_token === 'string' &&
    value.tokens.access_token !== '' &&
    isRecord(value.user) &&
    typeof value.user.uuid === 'string'
  );
}

/**
 * The hand check in the shape api() calls (`safeParse`): a wrong answer is the api-client's own
 * « Réponse inattendue du serveur » ApiError. api() only reads `safeParse`, hence the cast.
 */
const LoginAnswerCheck = {
  safeParse: (value: unknown) =>
    isLoginAnswer(value)
      ? { success: true as const, data: value }
      : { success: false as const, error: { issues: [{ path: [], message: 'tokens.access_token et user attendus' }] } },
} as unknown as NonNullable<ApiOptions<LoginAnswer>['schema']>;

/** POST /api/auth/login: stores the token and the user on success. */
export async function login(body: LoginBody): Promise<User> {
  const { tokens, user } = await api('/api/auth/login', {
    method: 'POST',
    body,
    schema: LoginAnswerCheck,
    retryOnUnauthorized: false,
  });
  authStore.setSession(tokens.access_token, user);
  return user;
}
