import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ListDriversQuerySchema } from '@flotte/contract';
import {
  type ArchiveMode,
  archiveCondition,
  archiveModeOf,
  pageOrder,
  pagePlaceholders,
  pageResult,
  pageStatement,
  readVersion,
  sortColumns,
  sortKeys,
} from '../../db/registers.js';
import type { Tx } from '../../db/scope.js';
import { drivers } from '../../db/schema/drivers.js';
import { searchPatterns, searchPlaceholders, searchTextMatches, searchValues } from '../../db/search.js';
import { prepared } from '../../db/statements.js';
import { offsetOf } from '../../lib/pagination.js';

type ListQuery = z.output<typeof ListDriversQuerySchema>;

// Each key has its (organization_uuid, key…, uuid) index (migration 0007).
const sortableColumns = {
  lastName: [drivers.lastNameKey, drivers.firstNameKey],
  firstName: [drivers.firstNameKey, drivers.lastNameKey],
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

type ListShape = { archive: ArchiveMode; patterns: number; sortBy: string };

/** The list statement of one shape; its values are placeholders (db/statements.ts). */
function listStatement(tx: Tx) {
  return (shape: ListShape) => {
    const searching = shape.patterns > 0;
    const where = and(
      eq(drivers.organizationUuid, pagePlaceholders.organization),
      archiveCondition(drivers.archivedAt, shape.archive),
      searching ? searchTextMatches(drivers.searchText, searchPlaceholders(shape.patterns)) : undefined,
    );
    const order = sortKeys(shape.sortBy, sortableColumns, 'lastName', drivers.uuid);
    const page = tx
      .select({
        uuid: drivers.uuid,
        firstName: drivers.firstName,
        lastName: drivers.lastName,
        email: drivers.email,
        phone: drivers.phone,
        archivedAt: drivers.archivedAt,
        createdAt: drivers.createdAt,
        ...sortColumns(order),
      })
      .from(drivers)
      .where(where)
      .orderBy(...pageOrder(order, searching))
      .limit(pagePlaceholders.limit)
      .offset(pagePlaceholders.offset)
      .as('list_page');
    const { uuid, firstName, lastName, email, phone, archivedAt, createdAt } = page;
    return pageStatement(tx, {
      register: 'drivers',
      table: drivers,
      where,
      filtered: searching,
      page,
      fields: { uuid, firstName, lastName, email, phone, archivedAt, createdAt },
      order,
    });
  };
}

/** The version of what the drivers list shows, to check a copy of a page against. */
export function listVersion(tx: Tx, organizationUuid: string) {
  return readVersion(tx, organizationUuid, ['drivers']);
}

/** One page of drivers with the counts and the register's version, in one statement. */
export async function listDrivers(tx: Tx, organizationUuid: string, query: ListQuery) {
  const digits = query.search ? phoneDigits(query.search) : null;
  const patterns = query.search ? searchPatterns(query.search, ...(digits ? [digits] : [])) : [];
  const shape: ListShape = { archive: archiveModeOf(query), patterns: patterns.length, sortBy: query.sortBy ?? 'lastName' };
  const statement = prepared(tx, 'drivers_list', shape, listStatement(tx));
  const result = await statement.execute({
    organization: organizationUuid,
    limit: query.limit,
    offset: offsetOf(query.page, query.limit),
    ...searchValues(patterns),
  });
  return pageResult(result, shape.archive, ({ uuid, firstName, lastName, email, phone, archivedAt, createdAt }) =>
    uuid === null || firstName === null || lastName === null || createdAt === null ? null : { uuid, firstName, lastName, email, phone, archivedAt, createdAt },
  );
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
