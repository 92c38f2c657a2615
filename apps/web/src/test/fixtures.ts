import type { Organization, OrganizationUser, User } from '@flotte/contract';

export const ORG_A: Organization = {
  uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0001',
  title: 'Transports Martin',
  avatar: null,
  environment: { uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0e01', title: 'Courtage Demo' },
  subscription: null,
};

export const ORG_B: Organization = {
  uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0002',
  title: 'Ambulances Durand',
  avatar: null,
  environment: { uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0e01', title: 'Courtage Demo' },
  subscription: null,
};

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    uuid: '5d1c2b3a-0000-4000-8000-000000000001',
    email: 'claire.dupont@demo.fr',
    firstName: 'Claire',
    lastName: 'Dupont',
    roles: ['ADMIN'],
    avatar: null,
    description: null,
    phone: '+33612345678',
    currentOrganizationUser: { uuid: '7e000000-0000-4000-8000-0000000000a1', organization: ORG_A },
    currentEnvironmentUser: null,
    ...overrides,
  };
}

export function makeLink(user: User, organization: Organization, uuid: string): OrganizationUser {
  return {
    uuid,
    organization,
    user: { uuid: user.uuid, firstName: user.firstName, lastName: user.lastName, email: user.email, avatar: null },
  };
}

export function page<T>(data: T[]) {
  return { data, page: 1, nbOfPages: 1, total: data.length };
}
