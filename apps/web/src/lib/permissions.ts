import type { Role, User } from '@flotte/contract';

const ADMIN_ROLES: readonly Role[] = ['ADMIN', 'SUPERADMIN', 'ROOT'];

/** ADMIN, SUPERADMIN or ROOT: who may change the organization's settings (contract, intermediary). */
export function isAdministrator(user: Pick<User, 'roles'> | null | undefined): boolean {
  return user?.roles.some((role) => ADMIN_ROLES.includes(role)) ?? false;
}

/**
 * Administrators may delete register rows permanently (the API answers 403 to anyone else),
 * so the web hides that action from other users.
 */
export function canHardDelete(user: Pick<User, 'roles'> | null | undefined): boolean {
  return isAdministrator(user);
}
