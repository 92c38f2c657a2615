import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { readSystem } from '../../db/scope.js';
import type { BillingProvider } from './billing.js';

type Logger = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

/**
 * The daily usage report (decision 044): each live subscription's quantity follows its
 * organization's active vehicles (a plate, not archived, not gone; at least 1). Only a change is
 * sent; the subscription row moves when the provider's event comes back. One organization's
 * failure does not stop the others.
 */
export async function reportFleetUsage(db: Database, billing: BillingProvider, logger?: Logger) {
  const rows = await readSystem(db, async (tx) => {
    const result = (await tx.execute(sql`
      select s.subscription_id as "subscriptionId", s.item_id as "itemId", s.quantity, s.organization_uuid as "organizationUuid",
             (select count(*)::int from vehicules v
               where v.organization_uuid = s.organization_uuid and v.archived_at is null and v.immatriculation is not null
                 and (v.exit_date is null or v.exit_date > (now() at time zone 'Europe/Paris')::date)) as vehicles
      from billing_subscriptions s
      where s.status in ('active', 'trialing', 'past_due') and s.provider = ${billing.kind}
      order by s.organization_uuid`)) as unknown as { rows: { subscriptionId: string; itemId: string | null; quantity: number; organizationUuid: string; vehicles: number }[] };
    return result.rows;
  });
  let updated = 0;
  let failed = 0;
  for (const row of rows) {
    const quantity = Math.max(1, row.vehicles);
    if (quantity === row.quantity) continue;
    try {
      await billing.updateQuantity({ subscriptionId: row.subscriptionId, itemId: row.itemId }, quantity);
      updated += 1;
    } catch (error) {
      failed += 1;
      logger?.warn({ organizationUuid: row.organizationUuid, err: error }, 'facturation : quantité non transmise');
    }
  }
  return { subscriptions: rows.length, updated, failed };
}
