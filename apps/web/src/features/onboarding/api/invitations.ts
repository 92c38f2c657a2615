import type { CreateInvitationBody } from '@flotte/contract';
import { api } from '../../../lib/api-client';

/** POST /api/organization-invitation (contract invitations.ts): one person invited into the current organization. */
export function inviteColleague(body: CreateInvitationBody): Promise<unknown> {
  return api<unknown>('/api/organization-invitation', { method: 'POST', body });
}
