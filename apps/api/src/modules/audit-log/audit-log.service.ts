import {
  AUDIT_ACTION_LABELS,
  AUDIT_FIELD_LABELS,
  auditEntityLabel,
  auditFieldLabel,
  auditRoleLabel,
  auditValueText,
  COUNT_CAP,
  type AuditAction,
  type AuditActorList,
  type AuditChange,
  type AuditEntry,
  type AuditLogPage,
  type ListAuditLogQuerySchema,
} from '@flotte/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { type ReadTx, readTenant } from '../../db/scope.js';
import { containsFolded } from '../../db/search.js';
import { ForbiddenError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import { toPage } from '../../lib/pagination.js';

/**
 * The organization's activity log (issue 16, decision 041). The database writes it (the trigger
 * audit_log_record of the migration, for every write a signed-in person makes); this module only
 * reads it: the current organization's entries, under its row-level security, for its
 * administrators and the superadmins and ROOT working in it.
 */

type Query = z.output<typeof ListAuditLogQuerySchema>;

type EntryRow = {
  id: string;
  occurred_at: string | Date;
  actor_uuid: string;
  actor_name: string;
  actor_email: string;
  actor_role: string;
  entity: string;
  record_uuid: string;
  label: string | null;
  action: AuditAction;
  changed: string[] | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

async function rowsOf<T>(tx: ReadTx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

function requireLogReader(ctx: AuthContext): string {
  const organizationUuid = requireOrganization(ctx);
  if (!isAdmin(ctx)) throw new ForbiddenError("Seul un administrateur de l'organisation peut consulter le journal d'activité");
  return organizationUuid;
}

/** Fields in the order the registers' forms show them (AUDIT_FIELD_LABELS'), unknown ones last. */
const FIELD_ORDER = new Map(Object.keys(AUDIT_FIELD_LABELS).map((field, index) => [field, index]));
const byFormOrder = (a: string, b: string) => (FIELD_ORDER.get(a) ?? Infinity) - (FIELD_ORDER.get(b) ?? Infinity) || a.localeCompare(b);

/** Field by field: an update's changed fields; every field an insert set or a delete removed that had a value. */
function changesOf(row: EntryRow): AuditChange[] {
  const before = row.before ?? {};
  const after = row.after ?? {};
  const fields = (row.changed ?? Object.keys(row.action === 'delete' ? before : after).filter((field) => (row.action === 'delete' ? before : after)[field] !== null)).sort(byFormOrder);
  return fields.map((field) => ({
    field,
    label: auditFieldLabel(field),
    before: auditValueText(field, before[field]),
    after: auditValueText(field, after[field]),
  }));
}

function toEntry(row: EntryRow): AuditEntry {
  return {
    id: String(row.id),
    occurredAt: new Date(row.occurred_at).toISOString(),
    actor: { uuid: row.actor_uuid, name: row.actor_name, email: row.actor_email, role: row.actor_role, roleLabel: auditRoleLabel(row.actor_role) },
    entity: row.entity,
    entityLabel: auditEntityLabel(row.entity),
    record: row.record_uuid,
    label: row.label,
    action: row.action,
    actionLabel: AUDIT_ACTION_LABELS[row.action],
    changes: changesOf(row),
  };
}

/** A day of the filters (France) as the instant it starts. */
const dayStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'Europe/Paris'`;

function conditions(q: Query): SQL {
  const parts: SQL[] = [sql`true`];
  if (q.entity) parts.push(sql`l.entity = ${q.entity}`);
  if (q.actor) parts.push(sql`l.actor_uuid = ${q.actor}`);
  if (q.record) parts.push(sql`l.record_uuid = ${q.record}`);
  if (q.from) parts.push(sql`l.occurred_at >= ${dayStart(q.from)}`);
  if (q.to) parts.push(sql`l.occurred_at < ${dayStart(q.to)} + interval '1 day'`);
  if (q.search) {
    parts.push(sql`(${containsFolded(sql`l.actor_name`, q.search)} or ${containsFolded(sql`l.actor_email`, q.search)} or ${containsFolded(sql`coalesce(l.label, '')`, q.search)})`);
  }
  return sql.join(parts, sql` and `);
}

/** GET /api/audit-log: the current organization's entries, newest first; the total counted up to COUNT_CAP. */
export async function listAuditLog(db: Database, ctx: AuthContext, q: Query): Promise<AuditLogPage> {
  const organizationUuid = requireLogReader(ctx);
  const where = conditions(q);
  const { rows, total } = await readTenant(db, organizationUuid, async (tx) => {
    const [count] = await rowsOf<{ total: number }>(tx, sql`select count(*)::int as total from (select 1 from audit_log l where ${where} limit ${COUNT_CAP + 1}) c`);
    const rows = await rowsOf<EntryRow>(
      tx,
      sql`select l.id::text as id, l.occurred_at, l.actor_uuid, l.actor_name, l.actor_email, l.actor_role, l.entity, l.record_uuid, l.label, l.action, l.changed, l.before, l.after
          from audit_log l where ${where}
          order by l.occurred_at desc, l.id desc limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
    );
    return { rows, total: count!.total };
  });
  const capped = total > COUNT_CAP;
  return toPage(rows.map(toEntry), capped ? COUNT_CAP : total, q.page, q.limit, capped);
}

/** GET /api/audit-log/actors: who wrote in the organization, for the log's filter (the newest name of each). */
export async function listAuditActors(db: Database, ctx: AuthContext): Promise<AuditActorList> {
  const organizationUuid = requireLogReader(ctx);
  const rows = await readTenant(db, organizationUuid, (tx) =>
    rowsOf<{ uuid: string; name: string; email: string }>(
      tx,
      sql`select distinct on (l.actor_uuid) l.actor_uuid as uuid, l.actor_name as name, l.actor_email as email
          from audit_log l order by l.actor_uuid, l.occurred_at desc, l.id desc`,
    ),
  );
  return { data: rows.sort((a, b) => a.name.localeCompare(b.name, 'fr')).slice(0, 500) };
}
