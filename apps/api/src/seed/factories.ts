import { randomBytes, randomUUID } from 'node:crypto';
import { CGU_VERSION, INVITATION_LINK_DAYS, type MemberRole, normalizePlate, type Role } from '@flotte/contract';
import { eq } from 'drizzle-orm';
import type { WriteTx } from '../db/scope.js';
import { billingSubscriptions } from '../db/schema/billing.js';
import { drivers } from '../db/schema/drivers.js';
import { insuranceContractGuarantees, insuranceContracts, insuranceIntermediaries } from '../db/schema/insurance.js';
import { guarantees, sinisters } from '../db/schema/sinisters.js';
import { organizationInvitations } from '../db/schema/organizations.js';
import { users } from '../db/schema/users.js';
import { vehicules } from '../db/schema/vehicules.js';
import { hashPassword } from '../lib/passwords.js';
import { hashRefreshToken } from '../lib/tokens.js';
import * as environmentsService from '../modules/environments/environments.service.js';
import * as organizationsService from '../modules/organizations/organizations.service.js';

/**
 * Builders shared by the demo seed and the tests. They run in a system transaction and take
 * only what differs from a sensible default.
 */

const hashes = new Map<string, Promise<string>>();
function cachedHash(password: string) {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}

export const DEFAULT_TEST_PASSWORD = 'Motdepasse-tests-1';

export type UserInput = {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  /** Global roles only: ADMIN is a member's role in one organization (linkUser's role, decision 034). */
  roles?: Exclude<Role, 'ADMIN'>[];
  description?: string | null;
  phone?: string | null;
  avatarUrl?: string | null;
  /** The terms' version the user accepted: CGU_VERSION unless told (null: never accepted). */
  cguAcceptedVersion?: string | null;
};

export async function createUser(tx: WriteTx, input: UserInput = {}) {
  const email = input.email ?? `utilisateur-${randomUUID().slice(0, 8)}@exemple.fr`;
  const [row] = await tx
    .insert(users)
    .values({
      email,
      passwordHash: await cachedHash(input.password ?? DEFAULT_TEST_PASSWORD),
      firstName: input.firstName ?? 'Camille',
      lastName: input.lastName ?? 'Bernard',
      roles: input.roles ?? ['USER'],
      description: input.description ?? null,
      phone: input.phone ?? null,
      avatarUrl: input.avatarUrl ?? null,
      // Seeded and test users have read the terms in force; `cguAcceptedVersion: null` makes one who has not.
      cguAcceptedVersion: input.cguAcceptedVersion === undefined ? CGU_VERSION : input.cguAcceptedVersion,
      cguAcceptedAt: input.cguAcceptedVersion === null ? null : new Date(),
    })
    .returning({ uuid: users.uuid, email: users.email });
  return row!;
}

export async function createEnvironment(
  tx: WriteTx,
  input: { title?: string; bookingUrl?: string | null; refererEmail?: string | null; tiers?: { title: string; startAt: Date; priceCents?: number; includedOrganizations?: number; freeOrganizations?: number }[] } = {},
) {
  const uuid = await environmentsService.createEnvironmentRecord(tx, {
    title: input.title ?? `Cabinet ${randomUUID().slice(0, 6)}`,
    bookingUrl: input.bookingUrl ?? null,
    refererEmail: input.refererEmail ?? null,
  });
  for (const tier of input.tiers ?? []) await environmentsService.addTier(tx, { environmentUuid: uuid, ...tier });
  return { uuid };
}

export async function createOrganization(tx: WriteTx, input: { title?: string; environmentUuid?: string | null } = {}) {
  const uuid = await organizationsService.createOrganization(tx, {
    title: input.title ?? `Société ${randomUUID().slice(0, 6)}`,
    environmentUuid: input.environmentUuid ?? null,
  });
  return { uuid };
}

/**
 * A live subscription of an organization outside any environment (decision 044), as the embedded
 * provider leaves it once paid: 'pro' unlocks the document management and the alerts, 'essentiel'
 * the document management.
 */
export async function subscribeToPlan(tx: WriteTx, organizationUuid: string, planId: 'essentiel' | 'pro' = 'pro') {
  const now = new Date();
  await tx.insert(billingSubscriptions).values({
    organizationUuid,
    provider: 'embedded',
    subscriptionId: `sub_seed_${randomUUID()}`,
    planId,
    interval: 'month',
    status: 'active',
    quantity: 1,
    currentPeriodStart: now,
    currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000),
    eventAt: Math.floor(now.getTime() / 1000),
  });
}

export async function linkUser(tx: WriteTx, organizationUuid: string, userUuid: string, role: MemberRole = 'USER') {
  const uuid = await organizationsService.addMember(tx, organizationUuid, userUuid, role);
  return { uuid: uuid! };
}

export async function attachToEnvironment(tx: WriteTx, environmentUuid: string, userUuid: string) {
  return { uuid: await environmentsService.attachUser(tx, environmentUuid, userUuid) };
}

/** A pending invitation (decision 034) and the token of its link; valid 7 days unless `expiresAt` says. */
export async function createInvitation(
  tx: WriteTx,
  input: { organizationUuid: string; email: string; role?: MemberRole; invitedByUuid?: string | null; expiresAt?: Date },
) {
  const token = randomBytes(32).toString('base64url');
  const [row] = await tx
    .insert(organizationInvitations)
    .values({
      organizationUuid: input.organizationUuid,
      email: input.email.toLowerCase(),
      role: input.role ?? 'USER',
      tokenHash: hashRefreshToken(token),
      invitedByUuid: input.invitedByUuid ?? null,
      expiresAt: input.expiresAt ?? new Date(Date.now() + INVITATION_LINK_DAYS * 86_400_000),
    })
    .returning({ uuid: organizationInvitations.uuid });
  return { uuid: row!.uuid, token };
}

/** Fleet registers. These insert in bulk inside the caller's transaction (system scope). */
export type DriverInput = { firstName?: string; lastName?: string; email?: string | null; phone?: string | null; archivedAt?: Date | null };

export async function createDrivers(tx: WriteTx, organizationUuid: string, inputs: DriverInput[]) {
  if (inputs.length === 0) return [];
  return tx
    .insert(drivers)
    .values(
      inputs.map((d, i) => ({
        organizationUuid,
        firstName: d.firstName ?? 'Jean',
        lastName: d.lastName ?? `Conducteur ${i + 1}`,
        email: d.email ?? null,
        phone: d.phone ?? null,
        archivedAt: d.archivedAt ?? null,
      })),
    )
    .returning();
}

export type VehiculeInput = {
  immatriculation?: string | null;
  brand?: string | null;
  model?: string | null;
  type?: string | null;
  circulationDate?: string | null;
  entryDate?: string | null;
  exitDate?: string | null;
  archivedAt?: Date | null;
  createdAt?: Date;
};

export async function createVehicules(tx: WriteTx, organizationUuid: string, inputs: VehiculeInput[]) {
  if (inputs.length === 0) return [];
  return tx
    .insert(vehicules)
    .values(
      inputs.map((v, i) => ({
        organizationUuid,
        immatriculation: v.immatriculation === undefined ? `AA${String(100 + i).padStart(3, '0')}BB` : v.immatriculation && normalizePlate(v.immatriculation),
        brand: v.brand === undefined ? 'Renault' : v.brand,
        model: v.model === undefined ? 'Clio' : v.model,
        type: v.type === undefined ? 'VP' : v.type,
        circulationDate: v.circulationDate ?? null,
        entryDate: v.entryDate ?? null,
        exitDate: v.exitDate ?? null,
        archivedAt: v.archivedAt ?? null,
        ...(v.createdAt ? { createdAt: v.createdAt } : {}),
      })),
    )
    .returning();
}

export type SinisterInput = {
  vehiculeUuid?: string | null;
  driverUuid?: string | null;
  guaranteeLabel?: string | null;
  sinisterIntermediateRef?: string | null;
  sinisterDate?: string;
  city?: string | null;
  ida?: boolean;
  hasHumanInjury?: boolean;
  damagedVehicule?: boolean;
  isThirdImplicated?: boolean;
  isDeclared?: boolean;
  responsibilityRate?: 0 | 25 | 50 | 75 | 100 | null;
  immatriculation?: string | null;
  /** The claim's cost: its reserve while open or in progress, paid once closed or refused (unless paidCents / reserveCents say). */
  totalCostCents?: number;
  status?: 'open' | 'inProgress' | 'closed' | 'refused';
  openedAt?: string | null;
  /** A closed or refused claim's closing date: its opening day (or the claim's) when not given. */
  closedAt?: string | null;
  paidCents?: number;
  reserveCents?: number;
  description?: string | null;
  archivedAt?: Date | null;
};

/** Paid, reserve and closing date of a factory claim, by the rules of decision 024. */
function claimLifecycle(s: SinisterInput, sinisterDate: string) {
  const status = s.status ?? 'open';
  const settled = status === 'closed' || status === 'refused';
  const total = s.totalCostCents ?? 0;
  const openedAt = s.openedAt === undefined ? sinisterDate : s.openedAt;
  return {
    status,
    openedAt,
    closedAt: s.closedAt === undefined ? (settled ? (openedAt ?? sinisterDate) : null) : s.closedAt,
    paidCents: s.paidCents ?? (settled ? total : 0),
    reserveCents: s.reserveCents ?? (settled ? 0 : total - (s.paidCents ?? 0)),
    description: s.description ?? null,
  };
}

export async function createSinisters(tx: WriteTx, organizationUuid: string, inputs: SinisterInput[]) {
  if (inputs.length === 0) return [];
  const guaranteeRows = await tx.select({ uuid: guarantees.uuid, label: guarantees.label }).from(guarantees);
  const guaranteeUuid = (label: string | null | undefined) => {
    if (!label) return null;
    const found = guaranteeRows.find((g) => g.label === label);
    if (!found) throw new Error(`unknown guarantee ${label}`);
    return found.uuid;
  };
  const plates = new Map(
    (await tx.select({ uuid: vehicules.uuid, immatriculation: vehicules.immatriculation }).from(vehicules).where(eq(vehicules.organizationUuid, organizationUuid))).map(
      (v) => [v.uuid, v.immatriculation],
    ),
  );
  return tx
    .insert(sinisters)
    .values(
      inputs.map((s, i) => ({
        organizationUuid,
        vehiculeUuid: s.vehiculeUuid ?? null,
        driverUuid: s.driverUuid ?? null,
        guaranteeUuid: guaranteeUuid(s.guaranteeLabel === undefined ? 'Responsabilité civile' : s.guaranteeLabel),
        sinisterIntermediateRef: s.sinisterIntermediateRef === undefined ? `SIN-${String(i + 1).padStart(5, '0')}` : s.sinisterIntermediateRef,
        sinisterDate: s.sinisterDate ?? '2026-03-15',
        city: s.city ?? null,
        ida: s.ida ?? false,
        hasHumanInjury: s.hasHumanInjury ?? false,
        damagedVehicule: s.damagedVehicule ?? false,
        isThirdImplicated: s.isThirdImplicated ?? false,
        isDeclared: s.isDeclared ?? false,
        responsibilityRate: s.responsibilityRate === undefined ? null : s.responsibilityRate,
        immatriculation: s.immatriculation ?? (s.vehiculeUuid ? (plates.get(s.vehiculeUuid) ?? null) : null),
        ...claimLifecycle(s, s.sinisterDate ?? '2026-03-15'),
        archivedAt: s.archivedAt ?? null,
      })),
    )
    .returning();
}

/** Insurance follow-up: one version of the fleet contract (amounts in euros), guarantees by label. */
export type ContractInput = {
  insurer?: string;
  policyNumber?: string;
  startDate?: string;
  renewalDate?: string;
  annualPremium?: number;
  guarantees?: { label: string; deductible: number }[];
  createdAt?: Date;
};

export async function createInsuranceContract(tx: WriteTx, organizationUuid: string, input: ContractInput = {}) {
  const [row] = await tx
    .insert(insuranceContracts)
    .values({
      organizationUuid,
      insurer: input.insurer ?? 'Axa France',
      policyNumber: input.policyNumber ?? `FLT-${randomUUID().slice(0, 6).toUpperCase()}`,
      startDate: input.startDate ?? '2026-01-01',
      renewalDate: input.renewalDate ?? '2027-01-01',
      annualPremiumCents: Math.round((input.annualPremium ?? 40_000) * 100),
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    })
    .returning({ uuid: insuranceContracts.uuid });
  const covered = input.guarantees ?? [];
  if (covered.length > 0) {
    const rows = await tx.select({ uuid: guarantees.uuid, label: guarantees.label }).from(guarantees);
    await tx.insert(insuranceContractGuarantees).values(
      covered.map((g) => {
        const found = rows.find((r) => r.label === g.label);
        if (!found) throw new Error(`unknown guarantee ${g.label}`);
        return { organizationUuid, contractUuid: row!.uuid, guaranteeUuid: found.uuid, deductibleCents: Math.round(g.deductible * 100) };
      }),
    );
  }
  return row!;
}

export type IntermediaryInput = {
  name?: string;
  contactLastName?: string;
  contactFirstName?: string;
  email?: string;
  productionEmail?: string;
  startDate?: Date;
};

export async function createInsuranceIntermediary(tx: WriteTx, organizationUuid: string, input: IntermediaryInput = {}) {
  const [row] = await tx
    .insert(insuranceIntermediaries)
    .values({
      organizationUuid,
      name: input.name ?? 'Cabinet Lefèvre Assurances',
      contactLastName: input.contactLastName ?? 'Lefèvre',
      contactFirstName: input.contactFirstName ?? 'Paul',
      email: input.email ?? 'paul.lefevre@courtier.exemple.fr',
      productionEmail: input.productionEmail ?? 'production@courtier.exemple.fr',
      startDate: input.startDate ?? new Date('2024-01-01T11:00:00Z'),
    })
    .returning({ uuid: insuranceIntermediaries.uuid });
  return row!;
}
