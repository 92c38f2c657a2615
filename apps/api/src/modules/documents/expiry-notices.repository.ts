import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';

/** The rows of a raw statement (both drivers answer { rows }). */
async function rowsOf<T>(tx: ReadTx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * The organizations holding a live document expired or expiring on or before `until` that was not
 * raised yet for its expiry date: a system read across organizations, served by
 * documents_expiry_idx and the notices' unique key.
 */
export async function organizationsToNotify(tx: ReadTx, until: string): Promise<string[]> {
  const rows = await rowsOf<{ organization_uuid: string }>(
    tx,
    sql`SELECT DISTINCT d.organization_uuid FROM documents d
        WHERE d.deleted_at IS NULL AND d.expires_on IS NOT NULL AND d.expires_on <= ${until}::date
          AND NOT EXISTS (SELECT 1 FROM document_expiry_notices n WHERE n.document_uuid = d.uuid AND n.expires_on = d.expires_on)`,
  );
  return rows.map((row) => row.organization_uuid);
}

export type RaisedNotice = { documentUuid: string; name: string; folder: string | null; expiresOn: string };

/**
 * Records, in one statement, every live document of the transaction's organization expired or
 * expiring on or before `until` and not raised yet for that date; answers those just recorded,
 * soonest first. A document raised before for another date (its expiry was changed) is raised
 * again; a concurrent run records each once (the unique key), the other one gets nothing back.
 */
export async function raiseNotices(tx: WriteTx, until: string): Promise<RaisedNotice[]> {
  const rows = await rowsOf<{ document_uuid: string; name: string; folder: string | null; expires_on: string }>(
    tx,
    sql`WITH raised AS (
          INSERT INTO document_expiry_notices (organization_uuid, document_uuid, expires_on)
          SELECT d.organization_uuid, d.uuid, d.expires_on FROM documents d
          WHERE d.deleted_at IS NULL AND d.expires_on IS NOT NULL AND d.expires_on <= ${until}::date
          ON CONFLICT (document_uuid, expires_on) DO NOTHING
          RETURNING document_uuid, expires_on
        )
        SELECT r.document_uuid, d.name, p.name AS folder, r.expires_on::text AS expires_on
        FROM raised r
        JOIN documents d ON d.uuid = r.document_uuid
        LEFT JOIN documents p ON p.uuid = d.parent_uuid
        ORDER BY r.expires_on, d.name_key, d.uuid`,
  );
  return rows.map((row) => ({ documentUuid: row.document_uuid, name: row.name, folder: row.folder, expiresOn: row.expires_on }));
}

/** The organization's administrators (its ADMIN members, and its members who are SUPERADMIN or ROOT, as isAdmin), with an e-mail. */
export async function administrators(tx: ReadTx): Promise<{ email: string; firstName: string }[]> {
  const rows = await rowsOf<{ email: string; first_name: string }>(
    tx,
    sql`SELECT u.email, u.first_name FROM organization_users ou
        JOIN users u ON u.uuid = ou.user_uuid
        WHERE ou.organization_uuid = app_current_org() AND (ou.role = 'ADMIN' OR u.roles && ARRAY['SUPERADMIN', 'ROOT']::text[])
        ORDER BY lower(u.email)`,
  );
  return rows.map((row) => ({ email: row.email, firstName: row.first_name }));
}

export async function organizationTitle(tx: ReadTx): Promise<string | null> {
  const [row] = await rowsOf<{ title: string }>(tx, sql`SELECT title FROM organizations WHERE uuid = app_current_org()`);
  return row?.title ?? null;
}
