import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ListDriversQuerySchema } from '@flotte/contract';
import { archiveCondition, orderBy, registerPage } from '../../db/registers.js';
import type { Tx } from '../../db/scope.js';
import { drivers } from '../../db/schema/drivers.js';
import { searchTextMatches } from '../../db/search.js';

type ListQuery = z.output<typeof ListDriversQuerySchema>;

const sortColumns = {
  lastName: [sql`lower(f_unaccent(${drivers.lastName}))`, sql`lower(f_unaccent(${drivers.firstName}))`],
  firstName: [sql`lower(f_unaccent(${drivers.firstName}))`, sql`lower(f_unaccent(${drivers.lastName}))`],
  email: drivers.email,
  phone: drivers.phone,
  createdAt: drivers.createdAt,
};

/** A phone typed the French way (06 12…) also matches its stored E.164 form (+336 12…). */
function phoneDigits(search: string): string | null {
  const digits = search.replace(/[\s.\-()+]/g, '');
  if (!/^\d{2,}$/.test(digits)) return null;
  return digits.startsWith('0') ? `33${digits.slice(1)}` : digits;
}

function searchCondition(search: string): SQL {
  const digits = phoneDigits(search);
  return digits ? searchTextMatches(drivers.searchText, search, digits) : searchTextMatches(drivers.searchText, search);
}

export async function listDrivers(tx: Tx, organizationUuid: string, query: ListQuery) {
  const where = and(
    eq(drivers.organizationUuid, organizationUuid),
    archiveCondition(drivers.archivedAt, query),
    query.search ? searchCondition(query.search) : undefined,
  );
  return registerPage(tx, organizationUuid, 'drivers', query, {
    rows: tx
      .select()
      .from(drivers)
      .where(where)
      .orderBy(...orderBy(query.sortBy, sortColumns, 'lastName', drivers.uuid, { searching: Boolean(query.search) }))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    filtered: Boolean(query.search),
    matching: (t) => t.select({ uuid: drivers.uuid }).from(drivers).where(where).$dynamic(),
  });
}

export async function findDriver(tx: Tx, uuid: string) {
  const [row] = await tx.select().from(drivers).where(eq(drivers.uuid, uuid)).limit(1);
  return row ?? null;
}

export type DriverRow = typeof drivers.$inferSelect;
export type DriverValues = Pick<typeof drivers.$inferInsert, 'firstName' | 'lastName' | 'email' | 'phone'>;

export async function insertDriver(tx: Tx, organizationUuid: string, values: DriverValues) {
  const [row] = await tx.insert(drivers).values({ ...values, organizationUuid }).returning();
  return row!;
}

export async function updateDriver(tx: Tx, uuid: string, values: Partial<DriverValues> & { archivedAt?: Date | null }) {
  const [row] = await tx
    .update(drivers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(drivers.uuid, uuid))
    .returning();
  return row ?? null;
}

export async function deleteDriver(tx: Tx, uuid: string) {
  const rows = await tx.delete(drivers).where(eq(drivers.uuid, uuid)).returning({ uuid: drivers.uuid });
  return rows.length > 0;
}
