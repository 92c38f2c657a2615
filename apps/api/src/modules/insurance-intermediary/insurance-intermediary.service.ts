import { type CreateInsuranceIntermediaryBodySchema, formatPlate, type InsuranceIntermediary, todayIso, vehiculeTypeLabel } from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { readTenant, type WriteTx, withTenant } from '../../db/scope.js';
import { ForbiddenError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import type { MailService } from '../../platform/platform-jobs.js';
import * as repo from './insurance-intermediary.repository.js';

function toIntermediary(row: repo.IntermediaryRow): InsuranceIntermediary {
  return {
    uuid: row.uuid,
    name: row.name,
    contactLastName: row.contactLastName,
    contactFirstName: row.contactFirstName,
    email: row.email,
    productionEmail: row.productionEmail,
    startDate: row.startDate.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

let parisOffset: Intl.DateTimeFormat | undefined;
/** Noon, Paris time, of a calendar day (YYYY-MM-DD), whatever the server's time zone. */
export function noonInParis(day: string): Date {
  parisOffset ??= new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Paris', timeZoneName: 'longOffset' });
  const utcNoon = new Date(`${day}T12:00:00Z`);
  const name = parisOffset.formatToParts(utcNoon).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  const offsetMinutes = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  return new Date(utcNoon.getTime() - offsetMinutes * 60_000);
}

/** Every intermediary the organization had, latest start first; every member reads them. */
export function listIntermediaries(db: Database, ctx: AuthContext): Promise<InsuranceIntermediary[]> {
  return readTenant(db, requireOrganization(ctx), async (tx) => (await repo.listIntermediaries(tx)).map(toIntermediary));
}

export function currentIntermediary(db: Database, ctx: AuthContext, now = new Date()): Promise<InsuranceIntermediary | null> {
  return readTenant(db, requireOrganization(ctx), async (tx) => {
    const row = await repo.currentIntermediary(tx, now);
    return row ? toIntermediary(row) : null;
  });
}

/** A new intermediary (the previous ones are kept); it starts today at noon unless told. Administrators only. */
export async function createIntermediary(
  db: Database,
  ctx: AuthContext,
  body: z.output<typeof CreateInsuranceIntermediaryBodySchema>,
): Promise<InsuranceIntermediary> {
  const organizationUuid = requireOrganization(ctx);
  if (!isAdmin(ctx)) throw new ForbiddenError("Seul un administrateur peut changer d'intermédiaire d'assurance");
  const start = body.startDate ?? todayIso();
  const startDate = start.length === 10 ? noonInParis(start) : new Date(start);
  const row = await withTenant(db, organizationUuid, (tx) =>
    repo.insertIntermediary(tx, {
      organizationUuid,
      name: body.name,
      contactLastName: body.contactLastName,
      contactFirstName: body.contactFirstName,
      email: body.email,
      productionEmail: body.productionEmail,
      startDate,
      authorUuid: ctx.userUuid,
    }),
  );
  return toIntermediary(row);
}

/** A vehicle entering or leaving the fleet, as the intermediary must hear of it. */
export type FleetMovement = {
  movement: 'entry' | 'exit';
  immatriculation: string;
  brand: string | null;
  model: string | null;
  type: string | null;
  /** YYYY-MM-DD */
  date: string;
};

/** What a module that changes the fleet needs to tell the intermediary. */
export type FleetNotifier = { mail: MailService; baseUrl: string };

/**
 * Tells the current intermediary (its production e-mail) of entries and exits, in the caller's
 * tenant transaction: the e-mail leaves only if the change commits. Many movements at once (a
 * bulk change) make one e-mail listing them (the first LISTED_MOVEMENTS, all counted); `cancelled`
 * tells that movements told before are undone. No intermediary yet: nobody to tell, nothing sent.
 */
/** The movements an e-mail lists one by one; beyond, it counts them (an import of 100 000 vehicles). */
export const LISTED_MOVEMENTS = 200;

export async function notifyFleetMovements(
  tx: WriteTx,
  ctx: AuthContext,
  notifier: FleetNotifier,
  movements: readonly FleetMovement[],
  { cancelled = false }: { cancelled?: boolean } = {},
): Promise<boolean> {
  if (movements.length === 0) return false;
  const intermediary = await repo.currentIntermediary(tx, new Date());
  if (!intermediary) return false;
  const organizationTitle = (await repo.currentOrganizationTitle(tx)) ?? 'Votre client';
  const sender = (await repo.userName(tx, ctx.userUuid)) ?? organizationTitle;
  await notifier.mail.queue(tx, {
    template: 'vehicle-movement',
    to: intermediary.productionEmail,
    baseUrl: notifier.baseUrl,
    data: {
      organizationTitle,
      intermediaryContactName: `${intermediary.contactFirstName} ${intermediary.contactLastName}`.trim() || null,
      senderName: sender,
      ...(cancelled ? { cancelled } : {}),
      ...(movements.length > LISTED_MOVEMENTS
        ? { total: { entries: movements.filter((m) => m.movement === 'entry').length, exits: movements.filter((m) => m.movement === 'exit').length } }
        : {}),
      movements: movements.slice(0, LISTED_MOVEMENTS).map((m) => ({
        movement: m.movement,
        immatriculation: formatPlate(m.immatriculation),
        brand: m.brand,
        model: m.model,
        category: m.type ? vehiculeTypeLabel(m.type) || null : null,
        date: m.date,
      })),
    },
  });
  return true;
}
