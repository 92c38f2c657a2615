import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { ReadTx } from '../../db/scope.js';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';

/**
 * What an organization's data export holds (issue 20, GDPR): every table with an organization
 * column is either exported — its rows of this organization, all columns but the derived and the
 * secret ones — or listed in NOT_EXPORTED with why. gdpr.test.ts fails on a table that is neither,
 * so a table added later is decided on, not forgotten.
 */
export const EXPORTED_TABLES = [
  'drivers',
  'vehicules',
  'sinisters',
  'documents',
  'document_expiry_notices',
  'insurance_contracts',
  'insurance_contract_guarantees',
  'insurance_intermediaries',
  'indicators',
  'dashboard_configs',
  'organization_users',
  'organization_invitations',
  'organization_alerts',
  'alert_reads',
  'reports',
  'imports',
  'import_changes',
  'survey_recipients',
  'survey_answers',
  'audit_log',
  'billing_subscriptions',
  'billing_invoices',
  'billing_checkouts',
] as const;

export const NOT_EXPORTED: Readonly<Record<string, string>> = {
  stored_files: 'internal keys of the stored objects: the files themselves are in the export',
  mail_outbox: 'messages being delivered hold live links (invitations, recovery) that must not travel in a file',
  register_counts: 'derived from the registers (counts and versions)',
  claim_daily_totals: 'derived from the claims (dashboard rollup)',
  fleet_daily_movements: 'derived from the vehicles (dashboard rollup)',
  billing_events: "the payment provider's event log, bookkeeping of the processing, not the organization's data",
  idempotency_keys: 'answers kept 24 h for retried requests (decision 050): a copy of what the other tables hold',
};

/** Columns never exported: search and sort keys derived from other columns, storage keys, token hashes. */
const DROPPED_COLUMN = /^search_text$|_key$|^token_hash$/;

/**
 * The statement of the organization's rows of one table. Read inside the organization's scope
 * (row-level security) and with an explicit WHERE all the same: PGlite's superuser passes through
 * row-level security.
 */
export function tableStatement(table: (typeof EXPORTED_TABLES)[number], organizationUuid: string): SQL {
  return sql`select * from ${sql.identifier(table)} where organization_uuid = ${organizationUuid} order by 1`;
}

/** A row as exported: without the derived and secret columns. */
export function exportedRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([column]) => !DROPPED_COLUMN.test(column)));
}

/** The organization's own row (a system read: the caller's rights are checked before). */
export async function organizationRow(tx: ReadTx, organizationUuid: string) {
  const [row] = await tx.select().from(organizations).where(eq(organizations.uuid, organizationUuid)).limit(1);
  return row ?? null;
}

/** Its members, with what identifies them: never their password hash nor their second factor. */
export async function members(tx: ReadTx, organizationUuid: string) {
  return tx
    .select({
      uuid: users.uuid,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      role: organizationUsers.role,
      memberSince: organizationUsers.createdAt,
    })
    .from(organizationUsers)
    .innerJoin(users, eq(users.uuid, organizationUsers.userUuid))
    .where(eq(organizationUsers.organizationUuid, organizationUuid))
    .orderBy(asc(users.lastName), asc(users.uuid));
}

/** The stored files of its documents (live or in the trash), to put in the export: uuid, name, file_key. */
export function documentFilesStatement(organizationUuid: string): SQL {
  return sql`select uuid, name, file_key from documents where organization_uuid = ${organizationUuid} and file_key is not null order by uuid`;
}
