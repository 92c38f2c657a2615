import type { Role, User } from '@flotte/contract';

const ADMIN_ROLES: readonly Role[] = ['ADMIN', 'SUPERADMIN', 'ROOT'];

/**
 * Administrators may delete register rows permanently (the API answers 403 to anyone else),
 * so the web hides that action from other users.
 */
export function canHardDelete(user: Pick<User, 'roles'> | null | undefined): boolean {
  return user?.roles.some((role) => ADMIN_ROLES.includes(role)) ?? false;
}
