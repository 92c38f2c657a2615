import { centsToEuros, eurosToCents, type Indicator, type SaveIndicatorsBody, todayIso } from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { readTenant, withTenant } from '../../db/scope.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import * as repo from './indicators.repository.js';

export function toIndicator(row: repo.IndicatorRow): Indicator {
  return {
    uuid: row.uuid,
    startDate: row.startDate,
    endDate: row.endDate,
    motorsCount: row.motorsCount,
    cashReceived: centsToEuros(row.cashReceivedCents),
    previousIndicatorUuid: row.previousIndicatorUuid,
  };
}

const frenchDate = (iso: string) => iso.split('-').reverse().join('/');
const describe = (p: { startDate: string; endDate: string }) => `du ${frenchDate(p.startDate)} au ${frenchDate(p.endDate)}`;

function requireWriter(ctx: AuthContext) {
  if (!isAdmin(ctx)) throw new ForbiddenError('Seul un administrateur peut modifier les périodes');
}

export async function listIndicators(db: Database, ctx: AuthContext): Promise<Indicator[]> {
  const rows = await readTenant(db, requireOrganization(ctx), (tx) => repo.listIndicators(tx));
  return rows.map(toIndicator);
}

export async function currentIndicator(db: Database, ctx: AuthContext): Promise<Indicator | null> {
  const row = await readTenant(db, requireOrganization(ctx), (tx) => repo.findIndicatorOn(tx, todayIso()));
  return row ? toIndicator(row) : null;
}

/** Periods that share at least one day, each pair once. */
function overlaps(periods: { uuid: string; startDate: string; endDate: string }[]) {
  const sorted = [...periods].sort((a, b) => a.startDate.localeCompare(b.startDate) || a.endDate.localeCompare(b.endDate));
  const pairs: [(typeof sorted)[number], (typeof sorted)[number]][] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j]!.startDate <= sorted[i]!.endDate; j++) pairs.push([sorted[i]!, sorted[j]!]);
  }
  return pairs;
}

/**
 * Creates (no uuid) or updates (uuid) the sent periods in one transaction, then checks that no two
 * periods of the organization overlap and re-links the chain by dates (previousIndicatorUuid).
 * Answers every period, newest first.
 */
export async function saveIndicators(db: Database, ctx: AuthContext, body: SaveIndicatorsBody): Promise<Indicator[]> {
  requireWriter(ctx);
  const organizationUuid = requireOrganization(ctx);
  const rows = await withTenant(db, organizationUuid, async (tx) => {
    await repo.lockOrganizationPeriods(tx, organizationUuid);
    const existing = new Set((await repo.listIndicators(tx)).map((r) => r.uuid));
    for (const [index, input] of body.currentIndicators.entries()) {
      if (input.uuid && !existing.has(input.uuid)) throw new NotFoundError(`Période introuvable (période n° ${index + 1})`);
      if (input.previousIndicatorUuid && !existing.has(input.previousIndicatorUuid)) {
        throw new NotFoundError(`Période précédente introuvable (période n° ${index + 1})`);
      }
    }
    for (const input of body.currentIndicators) {
      const values = {
        startDate: input.startDate,
        endDate: input.endDate,
        motorsCount: input.motorsCount,
        cashReceivedCents: eurosToCents(input.cashReceived),
      };
      if (input.uuid) await repo.updateIndicator(tx, input.uuid, values);
      else await repo.insertIndicator(tx, { ...values, organizationUuid });
    }
    const all = await repo.listIndicatorsAscending(tx);
    const conflicts = overlaps(all);
    if (conflicts.length > 0) {
      throw new BadRequestError(
        `Les périodes ne doivent pas se chevaucher : ${conflicts.map(([a, b]) => `la période ${describe(a)} chevauche la période ${describe(b)}`).join(' ; ')}`,
        // Under the sent period's start, the period it runs into (not its own dates, which the form shows).
        conflicts.map(([a, b]) => {
          const sentIndex = (period: typeof a) =>
            body.currentIndicators.findIndex((p) => p.uuid === period.uuid || (!p.uuid && p.startDate === period.startDate && p.endDate === period.endDate));
          const [sent, other] = sentIndex(b) >= 0 ? [sentIndex(b), a] : [sentIndex(a), b];
          return sent >= 0
            ? { path: `currentIndicators.${sent}.startDate`, message: `Chevauche la période ${describe(other)}` }
            : { path: 'currentIndicators', message: `La période ${describe(a)} chevauche la période ${describe(b)}` };
        }),
      );
    }
    await repo.rechain(tx);
    return repo.listIndicators(tx);
  });
  return rows.map(toIndicator);
}

export async function deleteIndicator(db: Database, ctx: AuthContext, uuid: string): Promise<void> {
  requireWriter(ctx);
  const organizationUuid = requireOrganization(ctx);
  await withTenant(db, organizationUuid, async (tx) => {
    await repo.lockOrganizationPeriods(tx, organizationUuid);
    if (!(await repo.deleteIndicator(tx, uuid))) throw new NotFoundError('Période introuvable');
    await repo.rechain(tx);
  });
}
