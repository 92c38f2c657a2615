import type { User } from '@flotte/contract';

/**
 * Whether the signed-in user belongs in the onboarding rather than the app (decision 033): a user
 * without any organization (an operator excepted), or one who left it at the members or finish
 * step. A member by invitation has an organization and no step: never.
 */
export function needsOnboarding(user: User): boolean {
  if (user.onboardingStep === 'members' || user.onboardingStep === 'finish') return true;
  if (user.currentOrganizationUser) return false;
  return !user.roles.includes('ROOT') && !user.roles.includes('SUPERADMIN');
}
