import { type BrokerSortColumn, DEFAULT_CLAIM_FREQUENCY_PERCENTAGE, DEFAULT_LOSS_RATIO_PERCENTAGE } from '@flotte/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { ReadTx } from '../../db/scope.js';
import { containsFolded } from '../../db/search.js';
import { earnedPremiums } from '../dashboard/dashboard.service.js';

/**
 * The broker's table (decision 039): every organization of ONE environment with its key figures,
 * in one statement run in system scope. Every table it reads is narrowed to the organizations
 * selected in `o` (environment_uuid = the environment the service checked the caller manages): each
 * figure is a subquery or a join keyed by `o.uuid`, so no row of another organization can
 * enter a figure, and no organization of another environment can enter the list.
 *
 * The figures are the dashboard's (decisions 022 and 029), read from the same daily rollups with the
 * same windows: claims from `claim_daily_totals` (breakdown 'total'), the fleet's N1 from
 * `fleet_daily_movements` (movements up to today), the earned premiums through `earnedPremiums`.
 */

export type BrokerRow = {
  uuid: string;
  title: string;
  avatar_url: string | null;
  vehicles: number;
  claims_this_year: number;
  period_uuid: string | null;
  period_start: string | null;
  period_end: string | null;
  motors_count: number | null;
  cash_received_cents: string | null;
  period_claims: number | null;
  cost_cents: string | null;
  earned_cents: string | null;
  n1: number | null;
  loss_ratio_limit: number;
  claim_frequency_limit: number;
  next_renewal: string | null;
  last_activity: string | null;
  total: number;
};

export type BrokerQuery = {
  environmentUuid: string;
  today: string;
  search?: string | undefined;
  sort: { column: BrokerSortColumn; descending: boolean };
  /** null: every row (the export). */
  page: { limit: number; offset: number } | null;
};

/** The sort keys, computed in SQL exactly as the service computes the figures (same order). */
const SORT_KEYS: Record<Exclude<BrokerSortColumn, 'title'>, SQL> = {
  vehicles: sql`f.vehicles`,
  claimsThisYear: sql`f.claims_this_year`,
  lossRatio: sql`case when f.earned_cents > 0 then f.cost_cents * 100.0 / f.earned_cents end`,
  claimFrequency: sql`case when f.motors_count > 0 then f.period_claims * 100.0 / f.motors_count end`,
  regularisation: sql`case when f.motors_count > 0 then (f.n1 - f.motors_count)::numeric * f.cash_received_cents / (2 * f.motors_count) end`,
  nextRenewal: sql`f.next_renewal`,
  lastActivity: sql`f.last_activity`,
};

const titleOrder = (descending: boolean) => (descending ? sql`lower(f_unaccent(f.title)) desc, f.title desc` : sql`lower(f_unaccent(f.title)), f.title`);

function orderBy({ column, descending }: BrokerQuery['sort']): SQL {
  if (column === 'title') return sql`${titleOrder(descending)}, f.uuid`;
  // Organizations without the figure come last whichever the direction; ties in French title order.
  return sql`${SORT_KEYS[column]} ${descending ? sql`desc` : sql`asc`} nulls last, ${titleOrder(false)}, f.uuid`;
}

export async function listOrganizations(tx: ReadTx, q: BrokerQuery): Promise<BrokerRow[]> {
  // The planner prices the 500 organizations' subqueries high enough to compile the statement
  // with JIT (jit_above_cost), which took 2.7 s of a 3 s export on the bench: never worth it here.
  // Transaction-local; the read is already a snapshot (the environment's check is read first).
  await tx.execute(sql`select set_config('jit', 'off', true)`);
  const result = (await tx.execute(brokerStatement(q))) as unknown as { rows: BrokerRow[] };
  return result.rows;
}

/** The table's statement (also for EXPLAIN in the bench's notes). */
export function brokerStatement(q: BrokerQuery): SQL {
  const today = sql`${q.today}::date`;
  const yearStart = sql`${`${q.today.slice(0, 4)}-01-01`}::date`;
  const search = q.search ? sql` and ${containsFolded(sql`o.title`, q.search)}` : sql``;
  const page = q.page ? sql` limit ${q.page.limit} offset ${q.page.offset}` : sql``;
  return sql`
    with o as (
      select o.uuid, o.title, o.avatar_url from organizations o where o.environment_uuid = ${q.environmentUuid}::uuid${search}
    ), f as (
      select o.uuid, o.title, o.avatar_url,
        coalesce(v.active, 0)::int as vehicles,
        (select coalesce(sum(t.claims), 0) from claim_daily_totals t
          where t.organization_uuid = o.uuid and t.breakdown = 'total' and t.day between ${yearStart} and ${today})::int as claims_this_year,
        p.uuid as period_uuid, p.start_date as period_start, p.end_date as period_end, p.motors_count, p.cash_received_cents,
        -- Subqueries of the select list rather than a lateral join: with a page (LIMIT), PostgreSQL
        -- computes those the sort does not need for the page's rows only.
        case when p.uuid is not null then (select coalesce(sum(t.claims), 0) from claim_daily_totals t
          where t.organization_uuid = o.uuid and t.breakdown = 'total' and t.day between p.start_date and p.end_date)::int end as period_claims,
        case when p.uuid is not null then (select coalesce(sum(t.cost_cents), 0) from claim_daily_totals t
          where t.organization_uuid = o.uuid and t.breakdown = 'total' and t.day between p.start_date and ${today}) end as cost_cents,
        case when p.uuid is not null then ${earnedPremiums(sql`p.start_date`, today, sql` and i.organization_uuid = o.uuid`)} end as earned_cents,
        case when p.uuid is not null then (select coalesce(sum(m.entered - m.gone), 0) from fleet_daily_movements m
          where m.organization_uuid = o.uuid and m.day <= ${today})::int end as n1,
        coalesce(c.loss_ratio_percentage, ${DEFAULT_LOSS_RATIO_PERCENTAGE}) as loss_ratio_limit,
        coalesce(c.claim_frequency_percentage, ${DEFAULT_CLAIM_FREQUENCY_PERCENTAGE}) as claim_frequency_limit,
        (select k.renewal_date from insurance_contracts k where k.organization_uuid = o.uuid
          order by k.created_at desc, k.uuid desc limit 1) as next_renewal,
        -- register_counts.version is the time of the register's latest write in microseconds (migration 0008).
        (select to_timestamp(max(rc.version) / 1000000.0) from register_counts rc
          where rc.organization_uuid = o.uuid and rc.version > 0) as last_activity
      from o
      left join register_counts v on v.organization_uuid = o.uuid and v.register = 'vehicules'
      left join dashboard_configs c on c.organization_uuid = o.uuid
      left join lateral (
        select i.uuid, i.start_date, i.end_date, i.motors_count, i.cash_received_cents from indicators i
        where i.organization_uuid = o.uuid and i.start_date <= ${today} and i.end_date >= ${today}
        order by i.start_date desc limit 1
      ) p on true
    )
    select f.uuid, f.title, f.avatar_url, f.vehicles, f.claims_this_year, f.period_uuid, f.period_start::text, f.period_end::text,
      f.motors_count, f.cash_received_cents::text, f.period_claims, f.cost_cents::text, f.earned_cents::text, f.n1,
      f.loss_ratio_limit, f.claim_frequency_limit, f.next_renewal::text,
      to_char(f.last_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_activity,
      (select count(*) from o)::int as total
    from f order by ${orderBy(q.sort)}${page}`;
}

/** The organizations of an environment (the total when the page asked is past the last one). */
export async function countOrganizations(tx: ReadTx, environmentUuid: string, search: string | undefined): Promise<number> {
  const where = search ? sql` and ${containsFolded(sql`o.title`, search)}` : sql``;
  const result = (await tx.execute(
    sql`select count(*)::int as total from organizations o where o.environment_uuid = ${environmentUuid}::uuid${where}`,
  )) as unknown as { rows: { total: number }[] };
  return result.rows[0]?.total ?? 0;
}

export async function findEnvironment(tx: ReadTx, environmentUuid: string) {
  const result = (await tx.execute(sql`select uuid, title from environments where uuid = ${environmentUuid}::uuid`)) as unknown as {
    rows: { uuid: string; title: string }[];
  };
  return result.rows[0] ?? null;
}
