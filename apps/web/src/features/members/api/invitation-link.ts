import {
  InvitationPreviewSchema,
  LoginSessionSchema,
  UserSchema,
  type AcceptInvitationBody,
  type InvitationPreview,
  type LoginSession,
  type User,
} from '@flotte/contract';
import { api } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-store';

// The invitation's link (/signup?invitation=…, decision 034). The token travels in POST bodies.
const dev = import.meta.env.DEV;

/** POST /api/invitation/check: who invites, where, which address, and whether it has an account. */
export function checkInvitation(token: string, signal?: AbortSignal): Promise<InvitationPreview> {
  return api<InvitationPreview>('/api/invitation/check', { method: 'POST', body: { token }, signal, schema: dev ? InvitationPreviewSchema : undefined, retryOnUnauthorized: false });
}

/** POST /api/invitation/accept: creates the account and signs it in, as a login does. */
export async function acceptInvitation(body: AcceptInvitationBody): Promise<User> {
  const { tokens, user } = await api<LoginSession>('/api/invitation/accept', {
    method: 'POST',
    body,
    schema: dev ? LoginSessionSchema : undefined,
    retryOnUnauthorized: false,
  });
  authStore.setSession(tokens.access_token, user);
  return user;
}

/** POST /api/invitation/join: the signed-in user joins; the organization becomes its current one. */
export async function joinInvitation(token: string): Promise<User> {
  const user = await api<User>('/api/invitation/join', { method: 'POST', body: { token }, schema: dev ? UserSchema : undefined });
  authStore.setUser(user);
  return user;
}
