import { sql } from 'drizzle-orm';
import type { WriteTx } from '../../db/scope.js';
import { uuidList } from '../../db/uuid-list.js';

/** What an erased record's entries are labelled in the activity log (« Conducteur effacé »). */
export type ErasedRecords = { entity: 'driver' | 'document'; uuids: readonly string[]; label: string };

/**
 * Blanks what the activity log tells of erased records — their label, the fields changed and
 * their values before and after — keeping who did what and when (migration 0040's
 * `audit_log_erase`, the one write the log allows: decision 049's addition). Run in the erasure's
 * tenant transaction, after its rows were deleted, so that the deletions' own entries are blanked
 * too. Returns the entries blanked.
 */
export async function eraseFromActivityLog(tx: WriteTx, records: readonly ErasedRecords[]): Promise<number> {
  let blanked = 0;
  for (const { entity, uuids, label } of records) {
    if (uuids.length === 0) continue;
    const result = (await tx.execute(sql`select audit_log_erase(${entity}, array[${uuidList(uuids)}], ${label}) as blanked`)) as unknown as { rows: { blanked: number }[] };
    blanked += Number(result.rows[0]?.blanked ?? 0);
  }
  return blanked;
}
