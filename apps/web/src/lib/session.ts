import { UserSchema, type UpdateUserBodySchema, type User } from '@flotte/contract';
import type { z } from 'zod';
import { api } from './api-client';
import { authStore } from './auth-store';

// The current user lives in the auth store (with the token), not in the query cache:
// guards, layouts and every feature read it synchronously.

// Logging in is features/auth/api/login.ts: the login page's cold load carries no zod (issue 10).

let loadingUser: Promise<User | null> | null = null;

/** GET /api/auth/me into the store; a failure is logged and leaves the user null (SPEC 8). */
export function loadCurrentUser(): Promise<User | null> {
  // The contract's schema checks the answer in development and tests only (decision 015).
  loadingUser ??= api('/api/auth/me', { schema: import.meta.env.DEV ? UserSchema : undefined })
    .then((user) => {
      authStore.setUser(user);
      return user;
    })
    .catch((error: unknown) => {
      console.warn('Chargement de l’utilisateur impossible', error);
      authStore.setUser(null);
      return null;
    })
    .finally(() => {
      loadingUser = null;
    });
  return loadingUser;
}

/**
 * PATCH /api/user/{uuid} on the current user; the answer replaces the stored user. `body` is
 * already valid (the account form's resolver output, a uuid): the API validates it again.
 */
export async function updateCurrentUser(body: z.output<typeof UpdateUserBodySchema>): Promise<User> {
  const me = authStore.getState().user;
  if (!me) throw new Error('Aucun utilisateur connecté');
  const user = await api(`/api/user/${me.uuid}`, {
    method: 'PATCH',
    body,
    schema: import.meta.env.DEV ? UserSchema : undefined,
  });
  authStore.setUser(user);
  return user;
}

/** Ends the session on the server (best effort) and forgets token and user here. */
export async function logout(): Promise<void> {
  try {
    await api('/api/auth/logout', { method: 'POST', retryOnUnauthorized: false });
  } catch (error) {
    console.warn('Déconnexion côté serveur impossible', error);
  }
  authStore.clear('logout');
}
