import type { Role } from '@flotte/contract';
import { ForbiddenError } from '../errors.js';

/** Who is calling, loaded once per request from the access token's subject. */
export type AuthContext = Readonly<{
  userUuid: string;
  /** The session the access token belongs to (its refresh-token family). */
  sessionUuid: string;
  roles: readonly Role[];
  /** The current organization, or null (a superadmin on an empty environment, a new user…). */
  organizationUuid: string | null;
  organizationUserUuid: string | null;
  /** Environments the user is attached to (as a superadmin or a ROOT that joined). */
  environmentUuids: readonly string[];
}>;

/**
 * The roles a request works with (decision 034): the global ones of users.roles (ROOT,
 * SUPERADMIN, USER) and ADMIN when the current organization's link says so. ADMIN replaces USER,
 * so the web's best-role label and menus read them as before.
 */
export function effectiveRoles(globalRoles: readonly string[], memberRole: string | null | undefined): Role[] {
  const global = globalRoles.filter((role) => role !== 'ADMIN' && role !== 'USER') as Role[];
  if (memberRole === 'ADMIN') return [...global, 'ADMIN'];
  return global.length > 0 ? global : ['USER'];
}

export const isRoot = (ctx: AuthContext) => ctx.roles.includes('ROOT');
export const isSuperadmin = (ctx: AuthContext) => ctx.roles.includes('SUPERADMIN');
export const isAdmin = (ctx: AuthContext) => ctx.roles.includes('ADMIN') || isSuperadmin(ctx) || isRoot(ctx);

/** A superadmin manages the environments it is attached to; ROOT manages every one. */
export function managesEnvironment(ctx: AuthContext, environmentUuid: string | null): boolean {
  if (isRoot(ctx)) return true;
  return environmentUuid !== null && isSuperadmin(ctx) && ctx.environmentUuids.includes(environmentUuid);
}

/**
 * Tenant features work in the current organization; without one (never chosen, or the caller was
 * just removed from it) the caller may see no organization's data: 403.
 */
export function requireOrganization(ctx: AuthContext): string {
  if (!ctx.organizationUuid) throw new ForbiddenError("Sélectionnez d'abord une organisation");
  return ctx.organizationUuid;
}
