import type { FleetSize, OnboardingCompanyBodySchema, OnboardingState, OnboardingStepBody } from '@flotte/contract';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';
import { readSystem, withSystem, type ReadTx } from '../../db/scope.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, isSuperadmin } from '../../lib/auth-context.js';
import { addMember, createOrganization } from '../organizations/organizations.service.js';

export const ALREADY_MEMBER_MESSAGE =
  'Vous êtes déjà membre d’une organisation : l’accueil ne crée une organisation qu’une fois. Les autres se créent avec votre courtier.';
export const NO_ORGANIZATION_YET_MESSAGE = 'Créez d’abord votre organisation : cette étape vient après.';

type Stored = OnboardingState['step'];

/** The user's stored step and the organization they work in (the one made at the onboarding, once made). */
async function load(tx: ReadTx, ctx: AuthContext) {
  const [user] = await tx.select({ step: users.onboardingStep }).from(users).where(eq(users.uuid, ctx.userUuid)).limit(1);
  if (!user) throw new NotFoundError('Utilisateur introuvable');
  const [membership] = await tx
    .select({ uuid: organizationUsers.uuid })
    .from(organizationUsers)
    .where(eq(organizationUsers.userUuid, ctx.userUuid))
    .limit(1);
  return { stored: user.step as Stored | null, hasOrganization: Boolean(membership) };
}

/**
 * Where the user is, from the stored step and the facts: without an organization, the welcome or
 * the company step (an operator without one is never asked); with one, the members or finish
 * step if the onboarding made it, else nothing (a member by invitation goes to the dashboard).
 */
export function deriveStep(stored: Stored | null, hasOrganization: boolean, ctx: AuthContext): Stored {
  if (isRoot(ctx) || isSuperadmin(ctx)) return stored && hasOrganization && (stored === 'members' || stored === 'finish') ? stored : 'done';
  if (!hasOrganization) return stored === 'company' ? 'company' : 'welcome';
  return stored === 'members' || stored === 'finish' ? stored : 'done';
}

export async function getState(db: Database, ctx: AuthContext): Promise<OnboardingState> {
  return readSystem(db, async (tx) => {
    const { stored, hasOrganization } = await load(tx, ctx);
    const step = deriveStep(stored, hasOrganization, ctx);
    if (step !== 'members' && step !== 'finish') return { step, organization: null };
    const [organization] = ctx.organizationUuid
      ? await tx
          .select({
            uuid: organizations.uuid,
            title: organizations.title,
            siren: organizations.siren,
            siret: organizations.siret,
            address: organizations.address,
            fleetSize: organizations.fleetSize,
            avatarUrl: organizations.avatarUrl,
          })
          .from(organizations)
          .where(eq(organizations.uuid, ctx.organizationUuid))
          .limit(1)
      : [];
    if (!organization) return { step, organization: null };
    const { avatarUrl, fleetSize, ...identity } = organization;
    return { step, organization: { ...identity, fleetSize: fleetSize as FleetSize | null, logo: avatarUrl ? { url: avatarUrl } : null } };
  });
}

/**
 * Remembers the step reached (a reload or a new sign-in resumes there). The welcome and company
 * steps are for a user without an organization, the others for one with it; 'done' ends it.
 */
export async function setStep(db: Database, ctx: AuthContext, { step }: OnboardingStepBody): Promise<OnboardingState> {
  await withSystem(db, async (tx) => {
    const { stored, hasOrganization } = await load(tx, ctx);
    const current = deriveStep(stored, hasOrganization, ctx);
    if (current === 'done' && step !== 'done') throw new ConflictError('Votre accueil est terminé : rendez-vous sur le tableau de bord.');
    if (!hasOrganization && step !== 'welcome' && step !== 'company') throw new ConflictError(NO_ORGANIZATION_YET_MESSAGE);
    if (hasOrganization && (step === 'welcome' || step === 'company')) throw new ConflictError(ALREADY_MEMBER_MESSAGE);
    await tx.update(users).set({ onboardingStep: step === 'done' ? null : step, updatedAt: new Date() }).where(eq(users.uuid, ctx.userUuid));
  });
  return getState(db, ctx);
}

/**
 * The organization of a user who has none: made with its identifiers, the user its
 * administrator, and their current organization; the onboarding moves to the members step.
 * A user who already has one is refused (409): the rule is one organization made this way.
 */
export async function createCompany(db: Database, ctx: AuthContext, body: z.output<typeof OnboardingCompanyBodySchema>, onChanged: () => void): Promise<OnboardingState> {
  await withSystem(db, async (tx) => {
    // Locks the user's row: two racing submissions make one organization, the other is refused.
    await tx.execute(sql`select 1 from ${users} where ${users.uuid} = ${ctx.userUuid} for update`);
    const { hasOrganization } = await load(tx, ctx);
    if (hasOrganization || isRoot(ctx) || isSuperadmin(ctx)) throw new ConflictError(ALREADY_MEMBER_MESSAGE);
    const organizationUuid = await createOrganization(tx, {
      title: body.title,
      siren: body.companyId.kind === 'siren' ? body.companyId.value : body.companyId.value.slice(0, 9),
      siret: body.companyId.kind === 'siret' ? body.companyId.value : null,
      address: body.address,
      fleetSize: body.fleetSize,
    });
    const link = await addMember(tx, organizationUuid, ctx.userUuid, 'ADMIN');
    await tx.update(users).set({ currentOrganizationUserUuid: link, onboardingStep: 'members', updatedAt: new Date() }).where(eq(users.uuid, ctx.userUuid));
  });
  // The cached context still says « no organization, no ADMIN »: it must go at once.
  onChanged();
  const [link] = await readSystem(db, (tx) =>
    tx.select({ organizationUuid: organizationUsers.organizationUuid }).from(organizationUsers).where(eq(organizationUsers.userUuid, ctx.userUuid)).limit(1),
  );
  return getState(db, { ...ctx, organizationUuid: link?.organizationUuid ?? null });
}
