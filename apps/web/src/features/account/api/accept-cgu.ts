import { CGU_VERSION, UserSchema, type User } from '@flotte/contract';
import { api } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-store';

/** POST /api/user/cgu: the user accepts the terms in force; the answer is the user, kept in the store. */
export async function acceptCgu(): Promise<User> {
  const user = await api<User>('/api/user/cgu', { method: 'POST', body: { version: CGU_VERSION }, schema: import.meta.env.DEV ? UserSchema : undefined });
  authStore.setUser(user);
  return user;
}
