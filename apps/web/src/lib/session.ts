import { UpdateUserBodySchema, UserSchema, type UpdateUserBody, type User } from '@flotte/contract';
import { api } from './api-client';
import { authStore } from './auth-store';

// The current user lives in the auth store (with the token), not in the query cache:
// guards, layouts and every feature read it synchronously.

// Logging in is features/auth/api/login.ts: the login page's cold load carries no zod (issue 10).

let loadingUser: Promise<User | null> | null = null;

/** GET /api/auth/me into the store; a failure is logged and leaves the user null (SPEC 8). */
export function loadCurrentUser(): Promise<User | null> {
  loadingUser ??= api('/api/auth/me', { schema: UserSchema })
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

/** PATCH /api/user/{uuid} on the current user; the answer replaces the stored user. */
export async function updateCurrentUser(body: UpdateUserBody): Promise<User> {
  const me = authStore.getState().user;
  if (!me) throw new Error('Aucun utilisateur connecté');
  const user = await api(`/api/user/${me.uuid}`, {
    method: 'PATCH',
    body: UpdateUserBodySchema.parse(body),
    schema: UserSchema,
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
