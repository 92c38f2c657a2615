import { type SQL, sql } from 'drizzle-orm';

/** `$1::uuid, $2::uuid, …`: uuids as the list of an `in (…)` or an `array[…]` (at least one). */
export function uuidList(uuids: readonly string[]): SQL {
  return sql.join(
    uuids.map((uuid) => sql`${uuid}::uuid`),
    sql`, `,
  );
}
