import { todayIso } from '@flotte/contract';

// The one place that says which tier of an environment is in force (decision 043).

/** Midnight of a Paris calendar day (YYYY-MM-DD), as an instant: 23:00 UTC the day before in winter, 22:00 in summer. */
export function parisMidnight(day: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  // Paris is UTC+1 or UTC+2; clocks change at 02:00 or 03:00, so midnight always exists once.
  for (const hours of [1, 2]) {
    const candidate = new Date(utcMidnight - hours * 3_600_000);
    if (todayIso(candidate) === day && todayIso(new Date(candidate.getTime() - 1)) !== day) return candidate;
  }
  throw new Error(`No Paris midnight for ${day}`);
}

/** The tier in force at `now`: the latest whose start has passed (a start at `now` counts), or null. */
export function tierInForce<T extends { startAt: Date }>(tiers: readonly T[], now: Date): T | null {
  let current: T | null = null;
  for (const tier of tiers) {
    if (tier.startAt.getTime() <= now.getTime() && (current === null || tier.startAt.getTime() > current.startAt.getTime())) current = tier;
  }
  return current;
}
