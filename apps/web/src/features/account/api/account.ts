import {
  AccountOrganizationListSchema,
  AccountSessionListSchema,
  EmailChangeRequestedSchema,
  UserSchema,
  type AccountOrganizationList,
  type AccountSessionList,
  type ChangeEmailBody,
  type DeleteAccountBody,
  type User,
} from '@flotte/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { apiUpload } from '../../../lib/api-upload';
import { authStore } from '../../../lib/auth-store';

// The account page's calls (decision 036). Names, phone, description: lib/session.ts; the password: change-password.ts.

const dev = import.meta.env.DEV;

/** POST /api/user/avatar: the square crop, resized by the API; the store gets the user it answers. */
export async function uploadAvatar(image: File, onProgress: (percent: number) => void = () => undefined): Promise<User> {
  const user = await apiUpload<User>('/api/user/avatar', [image], { field: 'file', onProgress, tooLarge: 'L’image est trop lourde : choisissez-en une plus légère.' });
  authStore.setUser(user);
  return user;
}

export async function removeAvatar(): Promise<User> {
  const user = await api('/api/user/avatar', { method: 'DELETE', schema: dev ? UserSchema : undefined });
  authStore.setUser(user);
  return user;
}

export function requestEmailChange(body: ChangeEmailBody) {
  return api('/api/user/email', { method: 'POST', body, schema: dev ? EmailChangeRequestedSchema : undefined });
}

export async function confirmEmailChange(token: string): Promise<User> {
  const user = await api('/api/user/email/confirm', { method: 'POST', body: { token }, schema: dev ? UserSchema : undefined });
  authStore.setUser(user);
  return user;
}

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'sessions'],
    queryFn: ({ signal }) => api<AccountSessionList>('/api/auth/sessions', { schema: dev ? AccountSessionListSchema : undefined, signal }),
  });

export function revokeSession(uuid: string) {
  return api<null>(`/api/auth/sessions/${uuid}`, { method: 'DELETE' });
}

/** « Se déconnecter partout »: every session ends, this one included. */
export function revokeAllSessions() {
  return api<null>('/api/auth/sessions', { method: 'DELETE' });
}

export const accountOrganizationsQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'organizations'],
    queryFn: ({ signal }) => api<AccountOrganizationList>('/api/user/organizations', { schema: dev ? AccountOrganizationListSchema : undefined, signal }),
  });

export function deleteAccount(userUuid: string, body: DeleteAccountBody) {
  return api<null>(`/api/user/${userUuid}`, { method: 'DELETE', body });
}
