import { eq } from 'drizzle-orm';
import { indicators } from '../db/schema/indicators.js';
import { vehicules } from '../db/schema/vehicules.js';
import type { WriteTx } from '../db/scope.js';

export type PeriodPlan = {
  /** How many yearly periods, the last one containing today. */
  periods: number;
  /** Premium per vehicle at the start of a period, in cents. */
  unitPremiumCents: number;
};

export const MARTIN_PERIODS: PeriodPlan = { periods: 3, unitPremiumCents: 145_000 };
export const DURAND_PERIODS: PeriodPlan = { periods: 2, unitPremiumCents: 112_500 };

const iso = (d: Date) => d.toISOString().slice(0, 10);
const monthStart = (d: Date, months: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));

/**
 * Yearly insurance periods for a seeded fleet (after seedFleet): the current one began on the first
 * of the month eight months ago, each earlier one a year before. motorsCount is the fleet on each
 * period's first day, so the half-differences show the fleet's real movements; the premium follows it.
 */
export async function seedPeriods(tx: WriteTx, organizationUuid: string, plan: PeriodPlan, today = new Date()) {
  const fleet = await tx
    .select({ entryDate: vehicules.entryDate, exitDate: vehicules.exitDate })
    .from(vehicules)
    .where(eq(vehicules.organizationUuid, organizationUuid));
  const inFleetOn = (day: string) => fleet.filter((v) => (!v.entryDate || v.entryDate <= day) && (!v.exitDate || v.exitDate >= day)).length;
  const currentStart = monthStart(today, -8);
  let previousUuid: string | null = null;
  const created: (typeof indicators.$inferSelect)[] = [];
  for (let k = plan.periods - 1; k >= 0; k--) {
    const start = monthStart(currentStart, -12 * k);
    const end = new Date(monthStart(start, 12).getTime() - 24 * 3600 * 1000);
    const motorsCount = inFleetOn(iso(start));
    const [row]: (typeof indicators.$inferSelect)[] = await tx
      .insert(indicators)
      .values({ organizationUuid, startDate: iso(start), endDate: iso(end), motorsCount, cashReceivedCents: motorsCount * plan.unitPremiumCents, previousIndicatorUuid: previousUuid })
      .returning();
    previousUuid = row!.uuid;
    created.push(row!);
  }
  return created;
}
