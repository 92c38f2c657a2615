import { uuidList } from '../../db/uuid-list.js';
import type { Alert, AlertDigestSetting, AlertPage, AlertTargetRule, AutomaticAlertRule, PreventionAlert, PreventionAlertDetail } from '@flotte/contract';
import type { z } from 'zod';
import type { CreatePreventionAlertBodySchema, ListAlertsQuerySchema } from '@flotte/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { type ReadTx, readSystem, readTenant, withSystem, withTenant } from '../../db/scope.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, isSuperadmin, managesEnvironment, requireOrganization } from '../../lib/auth-context.js';

/**
 * Prevention alerts (issue 16, decision 037). A superadmin writes alerts for the organizations of
 * its environment (system scope: they span organizations); each recipient gets a copy in
 * organization_alerts, beside the automatic alerts (alert-rules.ts); a member reads its
 * organization's under its row-level security, and marks them read for itself.
 */

async function rowsOf<T>(tx: ReadTx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

const iso = (value: string | Date) => new Date(value).toISOString();

/** 403 for whoever is no superadmin at all; 404 for a superadmin of another environment (its existence is not told). */
function requireEnvironmentManager(ctx: AuthContext, environmentUuid: string) {
  if (!isSuperadmin(ctx) && !isRoot(ctx)) throw new ForbiddenError('Seul un superadmin peut gérer les alertes de prévention');
  if (!managesEnvironment(ctx, environmentUuid)) throw new NotFoundError('Environnement introuvable');
}

/** The automatic rules whose open alert makes an organization match a written alert's target rule. */
const TARGET_RULES: Record<AlertTargetRule, readonly AutomaticAlertRule[]> = {
  lossRatioAbove: ['lossRatioAbove'],
  frequencyAbove: ['frequencyAbove'],
  limitReached: ['lossRatioAbove', 'lossRatioNear', 'frequencyAbove', 'frequencyNear'],
};

type CreateBody = z.output<typeof CreatePreventionAlertBodySchema>;

async function recipients(tx: ReadTx, environmentUuid: string, target: CreateBody['target']): Promise<string[]> {
  if (target.kind === 'all') {
    return (await rowsOf<{ uuid: string }>(tx, sql`select uuid from organizations where environment_uuid = ${environmentUuid} order by uuid`)).map((r) => r.uuid);
  }
  if (target.kind === 'organizations') {
    const wanted = [...new Set(target.organizations)];
    const found = new Set(
      (
        await rowsOf<{ uuid: string }>(
          tx,
          sql`select uuid from organizations where environment_uuid = ${environmentUuid} and uuid in (${uuidList(wanted)})`,
        )
      ).map((r) => r.uuid),
    );
    const missing = target.organizations.map((uuid, index) => ({ uuid, index })).filter(({ uuid }) => !found.has(uuid));
    if (missing.length > 0) {
      throw new BadRequestError(
        missing.length === 1 ? "Une organisation choisie n'existe pas dans cet environnement" : `${missing.length} organisations choisies n'existent pas dans cet environnement`,
        missing.map(({ index }) => ({ path: `target.organizations.${index}`, message: 'Organisation introuvable dans cet environnement' })),
      );
    }
    return wanted;
  }
  const rules = TARGET_RULES[target.rule];
  return (
    await rowsOf<{ uuid: string }>(
      tx,
      sql`select o.uuid from organizations o where o.environment_uuid = ${environmentUuid}
          and exists (select 1 from organization_alerts a where a.organization_uuid = o.uuid and a.source = 'automatic' and a.closed_at is null
                      and a.rule in (${sql.join(rules.map((rule) => sql`${rule}`), sql`, `)}))
          order by o.uuid`,
    )
  ).map((r) => r.uuid);
}

type PreventionRow = {
  uuid: string;
  title: string;
  body: string;
  severity: PreventionAlert['severity'];
  target_kind: PreventionAlert['targetKind'];
  target_rule: AlertTargetRule | null;
  publish_at: string;
  created_at: string;
  author_uuid: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  organizations: number;
  organizations_read: number;
  readers: number;
};

function selectPreventionAlerts(where: SQL): SQL {
  return sql`select p.uuid, p.title, p.body, p.severity, p.target_kind, p.target_rule, p.publish_at, p.created_at,
      u.uuid as author_uuid, u.first_name, u.last_name, u.email,
      (select count(*)::int from organization_alerts oa where oa.prevention_alert_uuid = p.uuid) as organizations,
      (select count(distinct r.organization_uuid)::int from alert_reads r join organization_alerts oa on oa.uuid = r.alert_uuid where oa.prevention_alert_uuid = p.uuid) as organizations_read,
      (select count(*)::int from alert_reads r join organization_alerts oa on oa.uuid = r.alert_uuid where oa.prevention_alert_uuid = p.uuid) as readers
    from prevention_alerts p left join users u on u.uuid = p.author_uuid
    where ${where}
    order by p.publish_at desc, p.created_at desc, p.uuid desc`;
}

function toPreventionAlert(row: PreventionRow): PreventionAlert {
  return {
    uuid: row.uuid,
    title: row.title,
    body: row.body,
    severity: row.severity,
    targetKind: row.target_kind,
    targetRule: row.target_rule,
    publishAt: iso(row.publish_at),
    createdAt: iso(row.created_at),
    author: row.author_uuid ? { uuid: row.author_uuid, firstName: row.first_name ?? '', lastName: row.last_name ?? '', email: row.email ?? '' } : null,
    organizations: row.organizations,
    organizationsRead: row.organizations_read,
    readers: row.readers,
  };
}

/** Written alerts kept in the list the console shows (the newest). */
export const LISTED_PREVENTION_ALERTS = 200;

export async function listPreventionAlerts(db: Database, ctx: AuthContext, environmentUuid: string): Promise<{ data: PreventionAlert[] }> {
  requireEnvironmentManager(ctx, environmentUuid);
  const rows = await readSystem(db, (tx) => rowsOf<PreventionRow>(tx, sql`${selectPreventionAlerts(sql`p.environment_uuid = ${environmentUuid}`)} limit ${LISTED_PREVENTION_ALERTS}`));
  return { data: rows.map(toPreventionAlert) };
}

async function loadDetail(tx: ReadTx, environmentUuid: string, alertUuid: string): Promise<PreventionAlertDetail> {
  const [row] = await rowsOf<PreventionRow>(tx, selectPreventionAlerts(sql`p.environment_uuid = ${environmentUuid} and p.uuid = ${alertUuid}`));
  if (!row) throw new NotFoundError('Alerte introuvable');
  const readers = await rowsOf<{ organization_uuid: string; title: string; user_uuid: string | null; first_name: string | null; last_name: string | null; email: string | null; read_at: string | null }>(
    tx,
    sql`select o.uuid as organization_uuid, o.title, u.uuid as user_uuid, u.first_name, u.last_name, u.email, r.read_at
        from organization_alerts oa join organizations o on o.uuid = oa.organization_uuid
        left join alert_reads r on r.alert_uuid = oa.uuid left join users u on u.uuid = r.user_uuid
        where oa.prevention_alert_uuid = ${alertUuid}
        order by lower(o.title), o.uuid, r.read_at`,
  );
  const byOrganization = new Map<string, PreventionAlertDetail['recipients'][number]>();
  for (const r of readers) {
    let entry = byOrganization.get(r.organization_uuid);
    if (!entry) byOrganization.set(r.organization_uuid, (entry = { organization: { uuid: r.organization_uuid, title: r.title }, readers: [] }));
    if (r.user_uuid && r.read_at) entry.readers.push({ uuid: r.user_uuid, firstName: r.first_name ?? '', lastName: r.last_name ?? '', email: r.email ?? '', readAt: iso(r.read_at) });
  }
  return { ...toPreventionAlert(row), recipients: [...byOrganization.values()] };
}

export async function getPreventionAlert(db: Database, ctx: AuthContext, environmentUuid: string, alertUuid: string): Promise<PreventionAlertDetail> {
  requireEnvironmentManager(ctx, environmentUuid);
  return readSystem(db, (tx) => loadDetail(tx, environmentUuid, alertUuid));
}

/**
 * Writes an alert and its copy for each recipient, in one transaction: the target is resolved now
 * (a rule: the organizations whose automatic alert of that kind is open). Published at
 * `publishAt` (now when absent or past): the members see it from then on.
 */
export async function createPreventionAlert(db: Database, ctx: AuthContext, environmentUuid: string, body: CreateBody): Promise<PreventionAlertDetail> {
  requireEnvironmentManager(ctx, environmentUuid);
  return withSystem(db, async (tx) => {
    const [environment] = await rowsOf<{ uuid: string }>(tx, sql`select uuid from environments where uuid = ${environmentUuid}`);
    if (!environment) throw new NotFoundError('Environnement introuvable');
    const organizations = await recipients(tx, environmentUuid, body.target);
    if (organizations.length === 0) {
      throw new BadRequestError(
        body.target.kind === 'rule' ? 'Aucune organisation ne correspond à cette règle aujourd’hui : l’alerte n’a pas été publiée' : 'Cet environnement n’a encore aucune organisation',
        [{ path: 'target', message: 'Aucune organisation destinataire' }],
      );
    }
    const now = new Date();
    const publishAt = body.publishAt && new Date(body.publishAt) > now ? new Date(body.publishAt) : now;
    const [alert] = await rowsOf<{ uuid: string }>(
      tx,
      sql`insert into prevention_alerts (environment_uuid, author_uuid, title, body, severity, target_kind, target_rule, publish_at)
          values (${environmentUuid}, ${ctx.userUuid}, ${body.title}, ${body.body}, ${body.severity}, ${body.target.kind}, ${body.target.kind === 'rule' ? body.target.rule : null}, ${publishAt.toISOString()})
          returning uuid`,
    );
    await tx.execute(
      sql`insert into organization_alerts (organization_uuid, source, prevention_alert_uuid, severity, title, body, published_at)
          select o, 'written', ${alert!.uuid}, ${body.severity}, ${body.title}, ${body.body}, ${publishAt.toISOString()}
          from unnest(${`{${organizations.join(',')}}`}::uuid[]) as o`,
    );
    return loadDetail(tx, environmentUuid, alert!.uuid);
  });
}

/** Withdraws a written alert: its copies (and who read them) go with it. */
export async function deletePreventionAlert(db: Database, ctx: AuthContext, environmentUuid: string, alertUuid: string): Promise<void> {
  requireEnvironmentManager(ctx, environmentUuid);
  const deleted = await withSystem(db, (tx) =>
    rowsOf<{ uuid: string }>(tx, sql`delete from prevention_alerts where uuid = ${alertUuid} and environment_uuid = ${environmentUuid} returning uuid`),
  );
  if (deleted.length === 0) throw new NotFoundError('Alerte introuvable');
}

type AlertRow = {
  uuid: string;
  source: Alert['source'];
  rule: AutomaticAlertRule | null;
  severity: Alert['severity'];
  title: string;
  body: string;
  link_href: string | null;
  link_label: string | null;
  published_at: string;
  closed_at: string | null;
  read: boolean;
};

const toAlert = (row: AlertRow): Alert => ({
  uuid: row.uuid,
  source: row.source,
  rule: row.rule,
  severity: row.severity,
  title: row.title,
  body: row.body,
  link: row.link_href ? { href: row.link_href, label: row.link_label ?? 'Voir' } : null,
  publishedAt: iso(row.published_at),
  closedAt: row.closed_at ? iso(row.closed_at) : null,
  read: row.read,
});

const readBy = (userUuid: string) => sql`exists (select 1 from alert_reads r where r.alert_uuid = a.uuid and r.user_uuid = ${userUuid})`;

type ListQuery = z.output<typeof ListAlertsQuerySchema>;

/** The current organization's published alerts, newest first (written and automatic, closed ones included, marked). */
export async function listAlerts(db: Database, ctx: AuthContext, q: ListQuery): Promise<AlertPage> {
  const where = sql`a.published_at <= now()${q.severity ? sql` and a.severity = ${q.severity}` : sql``}${q.unread ? sql` and not ${readBy(ctx.userUuid)}` : sql``}`;
  const { rows, total } = await readTenant(db, requireOrganization(ctx), async (tx) => {
    const [count] = await rowsOf<{ total: number }>(tx, sql`select count(*)::int as total from organization_alerts a where ${where}`);
    const rows = await rowsOf<AlertRow>(
      tx,
      sql`select a.uuid, a.source, a.rule, a.severity, a.title, a.body, a.link_href, a.link_label, a.published_at, a.closed_at, ${readBy(ctx.userUuid)} as read
          from organization_alerts a where ${where}
          order by a.published_at desc, a.uuid desc limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
    );
    return { rows, total: count!.total };
  });
  return { data: rows.map(toAlert), page: q.page, nbOfPages: Math.ceil(total / q.limit), total };
}

/** The sidebar's badge: published alerts still standing that the user has not read. */
export async function unreadCount(db: Database, ctx: AuthContext): Promise<{ count: number }> {
  if (!ctx.organizationUuid) return { count: 0 };
  const [row] = await readTenant(db, ctx.organizationUuid, (tx) =>
    rowsOf<{ count: number }>(tx, sql`select count(*)::int as count from organization_alerts a where a.published_at <= now() and a.closed_at is null and not ${readBy(ctx.userUuid)}`),
  );
  return { count: row!.count };
}

export async function markRead(db: Database, ctx: AuthContext, alertUuid: string): Promise<void> {
  const organizationUuid = requireOrganization(ctx);
  await withTenant(db, organizationUuid, async (tx) => {
    const [alert] = await rowsOf<{ uuid: string }>(tx, sql`select uuid from organization_alerts where uuid = ${alertUuid} and published_at <= now()`);
    if (!alert) throw new NotFoundError('Alerte introuvable');
    await tx.execute(sql`insert into alert_reads (organization_uuid, alert_uuid, user_uuid) values (${organizationUuid}, ${alertUuid}, ${ctx.userUuid}) on conflict (alert_uuid, user_uuid) do nothing`);
  });
}

/** Marks every published alert of the organization read for the user; answers how many were not. */
export async function markAllRead(db: Database, ctx: AuthContext): Promise<{ count: number }> {
  const organizationUuid = requireOrganization(ctx);
  const rows = await withTenant(db, organizationUuid, (tx) =>
    rowsOf<{ uuid: string }>(
      tx,
      sql`insert into alert_reads (organization_uuid, alert_uuid, user_uuid)
          select ${organizationUuid}, a.uuid, ${ctx.userUuid} from organization_alerts a where a.published_at <= now()
          on conflict (alert_uuid, user_uuid) do nothing returning uuid`,
    ),
  );
  return { count: rows.length };
}

async function digestRow(tx: ReadTx, ctx: AuthContext, environmentUuid: string) {
  const [row] = await rowsOf<{ alert_digest: boolean }>(
    tx,
    sql`select alert_digest from environment_users where environment_uuid = ${environmentUuid} and user_uuid = ${ctx.userUuid}`,
  );
  if (!row) throw new NotFoundError("Vous n'êtes pas rattaché à cet environnement");
  return row;
}

export async function getDigestSetting(db: Database, ctx: AuthContext, environmentUuid: string): Promise<AlertDigestSetting> {
  requireEnvironmentManager(ctx, environmentUuid);
  const row = await readSystem(db, (tx) => digestRow(tx, ctx, environmentUuid));
  return { enabled: row.alert_digest };
}

export async function setDigestSetting(db: Database, ctx: AuthContext, environmentUuid: string, enabled: boolean): Promise<AlertDigestSetting> {
  requireEnvironmentManager(ctx, environmentUuid);
  return withSystem(db, async (tx) => {
    await digestRow(tx, ctx, environmentUuid);
    await tx.execute(sql`update environment_users set alert_digest = ${enabled} where environment_uuid = ${environmentUuid} and user_uuid = ${ctx.userUuid}`);
    return { enabled };
  });
}
