import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { ReadTx } from '../../db/scope.js';
import { entityFilesColumn } from '../documents/entity-files.js';
import { DRIVER_HEADERS as H, formatFrenchPhone, formatPhone, ListDriverChoicesQuerySchema, ListDriversQuerySchema } from '@flotte/contract';
import { defineList } from '../../db/list-kit.js';
import { drivers } from '../../db/schema/drivers.js';

/** A phone typed the French way (06 12…) also matches its stored E.164 form (+336 12…). */
function phoneDigits(search: string): string | null {
  const digits = search.replace(/[\s.\-()+]/g, '');
  if (!/^\d{2,}$/.test(digits)) return null;
  return digits.startsWith('0') ? `33${digits.slice(1)}` : digits;
}

// Name, e-mail or phone, the phone also as typed the French way.
const search = { column: drivers.searchText, alsoAs: (term: string) => [phoneDigits(term)] };

/** The drivers register (docs/adding-a-register.md). */
export const driverList = defineList({
  query: ListDriversQuerySchema,
  register: 'drivers',
  table: drivers,
  columns: {
    uuid: drivers.uuid,
    firstName: drivers.firstName,
    lastName: drivers.lastName,
    email: drivers.email,
    phone: drivers.phone,
    archivedAt: drivers.archivedAt,
    createdAt: drivers.createdAt,
  },
  // Each row's files (SPEC 3), in the page's statement.
  pageColumns: { documents: entityFilesColumn('driver', drivers) },
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
  search,
  exports: {
    file: 'conducteurs',
    sheet: 'Conducteurs',
    columns: [
      { header: H.lastName, type: 'text', value: (d) => d.lastName, width: 20 },
      { header: H.firstName, type: 'text', value: (d) => d.firstName, width: 20 },
      { header: H.email, type: 'text', value: (d) => d.email, width: 30 },
      // 06 12 34 56 78 for a French number (without libphonenumber: fast); a foreign one keeps its +, which the CSV neutralises.
      { header: H.phone, type: 'text', value: (d) => (d.phone ? (formatFrenchPhone(d.phone) ?? formatPhone(d.phone)) : null), width: 18 },
    ],
  },
});

/** The drivers a form offers (the claim's driver): the active ones, by name, light. */
export const driverChoiceList = defineList({
  query: ListDriverChoicesQuerySchema,
  name: 'driver_choices',
  register: 'drivers',
  table: drivers,
  columns: { uuid: drivers.uuid, firstName: drivers.firstName, lastName: drivers.lastName, phone: drivers.phone },
  where: isNull(drivers.archivedAt),
  sort: { keys: { lastName: [drivers.lastNameKey, drivers.firstNameKey] }, default: 'lastName' },
  search,
});

export type DriverRow = NonNullable<typeof driverList.row>;
export type DriverChoiceRow = NonNullable<typeof driverChoiceList.row>;

/**
 * An active driver the new one would duplicate (issue 13, the import's matching rule): the same
 * e-mail, or the same first and last names (case and accents aside) and phone.
 */
export async function findMatching(tx: ReadTx, driver: { firstName: string; lastName: string; email: string | null; phone: string | null }) {
  const byNamesAndPhone = driver.phone
    ? and(eq(drivers.phone, driver.phone), eq(drivers.lastNameKey, sql`lower(f_unaccent(${driver.lastName}))`), eq(drivers.firstNameKey, sql`lower(f_unaccent(${driver.firstName}))`))
    : undefined;
  const byEmail = driver.email ? eq(sql`lower(${drivers.email})`, driver.email.toLowerCase()) : undefined;
  if (!byEmail && !byNamesAndPhone) return null;
  const [row] = await tx
    .select({ uuid: drivers.uuid, firstName: drivers.firstName, lastName: drivers.lastName, email: drivers.email, phone: drivers.phone })
    .from(drivers)
    .where(and(isNull(drivers.archivedAt), or(byEmail, byNamesAndPhone)))
    .limit(1);
  return row ?? null;
}
