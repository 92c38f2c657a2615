import { sql } from 'drizzle-orm';
import type { ReadTx } from '../../db/scope.js';
import type { ClaimWindow } from './dashboard.repository.js';

/**
 * What the renewal report reads besides the dashboard's figures: the organization's name and the
 * claims of the window, one page of them (`limit`), in the order of the register's date sort.
 * Same filter as every dashboard figure: not archived, sinisterDate within both days, declared as asked.
 */

async function rows<T>(tx: ReadTx, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Row-level security shows the current organization only. */
export async function organizationTitle(tx: ReadTx): Promise<string | null> {
  const [row] = await rows<{ title: string }>(tx, sql`select o.title from organizations o where o.uuid = app_current_org()`);
  return row?.title ?? null;
}

export type ReportClaimRow = {
  sinister_date: string;
  ref: string | null;
  immatriculation: string | null;
  driver_name: string | null;
  guarantee: string | null;
  city: string | null;
  responsibility_rate: number | null;
  is_declared: boolean;
  status: string;
  paid_cents: string;
  reserve_cents: string;
  cost_cents: string;
};

export function claimsOfWindow(tx: ReadTx, w: ClaimWindow, limit: number) {
  const declared = w.isDeclared === undefined ? sql`` : sql` and s.is_declared = ${w.isDeclared}`;
  return rows<ReportClaimRow>(
    tx,
    sql`select s.sinister_date::text, s.sinister_intermediate_ref as ref, s.immatriculation, s.driver_name, g.label as guarantee, s.city,
        s.responsibility_rate, s.is_declared, s.status, s.paid_cents::text, s.reserve_cents::text, s.total_cost_cents::text as cost_cents
      from sinisters s left join guarantees g on g.uuid = s.guarantee_uuid
      where s.archived_at is null and s.sinister_date between ${w.startDate}::date and ${w.endDate}::date${declared}
      order by s.sinister_date, s.sinister_intermediate_ref nulls last, s.uuid
      limit ${limit}`,
  );
}
