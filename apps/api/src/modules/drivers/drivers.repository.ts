import { eq } from 'drizzle-orm';
import { ListDriversQuerySchema } from '@flotte/contract';
import { defineList, findRecord } from '../../db/list-kit.js';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { drivers } from '../../db/schema/drivers.js';

/** A phone typed the French way (06 12…) also matches its stored E.164 form (+336 12…). */
function phoneDigits(search: string): string | null {
  const digits = search.replace(/[\s.\-()+]/g, '');
  if (!/^\d{2,}$/.test(digits)) return null;
  return digits.startsWith('0') ? `33${digits.slice(1)}` : digits;
}

/** The drivers register (docs/adding-a-register.md). */
export const driverList = defineList({
  query: ListDriversQuerySchema,
  register: 'drivers',
  table: drivers,
  key: drivers.uuid,
  organization: drivers.organizationUuid,
  columns: {
    uuid: drivers.uuid,
    firstName: drivers.firstName,
    lastName: drivers.lastName,
    email: drivers.email,
    phone: drivers.phone,
    archivedAt: drivers.archivedAt,
    createdAt: drivers.createdAt,
  },
  archive: drivers.archivedAt,
  // Each key has its (organization_uuid, key…, uuid) index (migration 0007); namesakes sort by first name.
  sort: {
    keys: {
      lastName: [drivers.lastNameKey, drivers.firstNameKey],
      firstName: [drivers.firstNameKey, drivers.lastNameKey],
      email: drivers.email,
      phone: drivers.phone,
      createdAt: drivers.createdAt,
    },
    default: 'lastName',
  },
  search: { column: drivers.searchText, alsoAs: (term) => [phoneDigits(term)] },
});

export type DriverRow = NonNullable<typeof driverList.row>;

export function findDriver(tx: ReadTx, uuid: string) {
  return findRecord(tx, driverList, uuid);
}

export type DriverValues = Pick<typeof drivers.$inferInsert, 'firstName' | 'lastName' | 'email' | 'phone'>;

export async function insertDriver(tx: WriteTx, organizationUuid: string, values: DriverValues) {
  const [row] = await tx.insert(drivers).values({ ...values, organizationUuid }).returning({ uuid: drivers.uuid });
  return (await findDriver(tx, row!.uuid))!;
}

export async function updateDriver(tx: WriteTx, uuid: string, values: Partial<DriverValues> & { archivedAt?: Date | null }) {
  const rows = await tx
    .update(drivers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(drivers.uuid, uuid))
    .returning({ uuid: drivers.uuid });
  return rows.length > 0 ? findDriver(tx, uuid) : null;
}

export async function deleteDriver(tx: WriteTx, uuid: string) {
  const rows = await tx.delete(drivers).where(eq(drivers.uuid, uuid)).returning({ uuid: drivers.uuid });
  return rows.length > 0;
}
