import { OnboardingStateSchema, type OnboardingCompanyBody, type OnboardingState, type OnboardingStepBody } from '@flotte/contract';
import { api } from '../../../lib/api-client';

const dev = import.meta.env.DEV;

/** GET /api/onboarding: the step to resume ('done': nothing to do) and the organization made on the way. */
export function getOnboarding(signal?: AbortSignal): Promise<OnboardingState> {
  return api<OnboardingState>('/api/onboarding', { signal, schema: dev ? OnboardingStateSchema : undefined });
}

/** PUT /api/onboarding/step: remembers the step reached; 'done' ends the onboarding. */
export function saveOnboardingStep(step: OnboardingStepBody['step']): Promise<OnboardingState> {
  return api<OnboardingState>('/api/onboarding/step', { method: 'PUT', body: { step }, schema: dev ? OnboardingStateSchema : undefined });
}

/** POST /api/onboarding/company: the user's organization, with them as its administrator. */
export function createCompany(body: OnboardingCompanyBody): Promise<OnboardingState> {
  return api<OnboardingState>('/api/onboarding/company', { method: 'POST', body, schema: dev ? OnboardingStateSchema : undefined });
}

/** The path of an onboarding step. */
export function onboardingPath(step: OnboardingState['step']): string {
  if (step === 'done') return '/dashboard';
  return step === 'welcome' ? '/onboarding' : `/onboarding/${step}`;
}
