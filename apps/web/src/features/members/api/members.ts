import {
  InvitationPageSchema,
  InvitationSchema,
  MAX_LIMIT,
  OrganizationUserPageSchema,
  OrganizationUserSchema,
  type CreateInvitationBody,
  type Invitation,
  type InvitationPage,
  type MemberRole,
  type OrganizationUser,
  type OrganizationUserPage,
} from '@flotte/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

// The « Membres » section of /parameters (decision 034): the current organization's members and,
// for its administrators, its pending invitations.
const dev = import.meta.env.DEV;

export const memberKeys = {
  all: ['members'] as const,
  members: (organizationUuid: string) => [...memberKeys.all, 'members', organizationUuid] as const,
  invitations: (organizationUuid: string) => [...memberKeys.all, 'invitations', organizationUuid] as const,
};

/** GET /api/organization-user?organization=…: every member of the organization, with its role. */
export function membersQueryOptions(organizationUuid: string) {
  return queryOptions({
    queryKey: memberKeys.members(organizationUuid),
    queryFn: ({ signal }) =>
      api<OrganizationUserPage>('/api/organization-user', {
        query: { organization: organizationUuid, limit: MAX_LIMIT },
        schema: dev ? OrganizationUserPageSchema : undefined,
        signal,
      }),
  });
}

/** GET /api/organization-invitation: the current organization's pending invitations (administrators). */
export function invitationsQueryOptions(organizationUuid: string) {
  return queryOptions({
    queryKey: memberKeys.invitations(organizationUuid),
    queryFn: ({ signal }) =>
      api<InvitationPage>('/api/organization-invitation', { query: { limit: MAX_LIMIT }, schema: dev ? InvitationPageSchema : undefined, signal }),
  });
}

export const useMembers = (organizationUuid: string) => useQuery(membersQueryOptions(organizationUuid));
export const useInvitations = (organizationUuid: string, enabled: boolean) => useQuery({ ...invitationsQueryOptions(organizationUuid), enabled });

/** Every write of the section reads the members and the invitations again. */
function useMembersMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }) });
}

/** PATCH /api/organization-user/{id}: ADMIN or USER. */
export const useChangeRole = () =>
  useMembersMutation(({ link, role }: { link: string; role: MemberRole }) =>
    api<OrganizationUser>(`/api/organization-user/${link}`, { method: 'PATCH', body: { role }, schema: dev ? OrganizationUserSchema : undefined }),
  );

/** DELETE /api/organization-user/{id}. */
export const useRemoveMember = () => useMembersMutation((link: string) => api<void>(`/api/organization-user/${link}`, { method: 'DELETE' }));

/** DELETE /api/organization-user/{id}/two-factor: the broker turns off the second factor of a member who lost it. */
export const useResetTwoFactor = () => useMembersMutation((link: string) => api<void>(`/api/organization-user/${link}/two-factor`, { method: 'DELETE' }));

/** POST /api/organization-invitation: the link leaves by e-mail. */
export const useInvite = () =>
  useMembersMutation((body: CreateInvitationBody) => api<Invitation>('/api/organization-invitation', { method: 'POST', body, schema: dev ? InvitationSchema : undefined }));

/** POST /api/organization-invitation/{uuid}/resend: a new 7-day link. */
export const useResendInvitation = () =>
  useMembersMutation((uuid: string) =>
    api<Invitation>(`/api/organization-invitation/${uuid}/resend`, { method: 'POST', schema: dev ? InvitationSchema : undefined }),
  );

/** DELETE /api/organization-invitation/{uuid}. */
export const useCancelInvitation = () => useMembersMutation((uuid: string) => api<void>(`/api/organization-invitation/${uuid}`, { method: 'DELETE' }));
