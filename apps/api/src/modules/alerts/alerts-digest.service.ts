import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { type ReadTx, withSystem } from '../../db/scope.js';
import type { MailService } from '../../platform/platform-jobs.js';

/** Organizations and alert titles a digest lists one by one; beyond, it counts them. */
export const DIGEST_LISTED_ORGANIZATIONS = 100;
export const DIGEST_LISTED_ALERTS = 10;

export type DigestDeps = { db: Database; mail: MailService; baseUrl: string };
export type DigestReport = { environments: number; alerts: number; emails: number };

async function rowsOf<T>(tx: ReadTx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * The broker's daily digest (issue 16, decision 037): for each environment, the automatic alerts
 * raised (or raised again) in its organizations and not told yet, still open, go in one e-mail to
 * each of its superadmins who did not turn the digest off; then they are marked told, whoever
 * receives it (an opted-out superadmin is not told later). One transaction per environment: the
 * marks and the queued e-mails commit together, a rerun tells nothing twice.
 */
export async function sendAlertDigests(deps: DigestDeps): Promise<DigestReport> {
  const environments = await withSystem(deps.db, (tx) =>
    rowsOf<{ uuid: string; title: string }>(
      tx,
      sql`select distinct e.uuid, e.title from environments e join organizations o on o.environment_uuid = e.uuid
          join organization_alerts a on a.organization_uuid = o.uuid
          where a.source = 'automatic' and a.digested_at is null order by e.uuid`,
    ),
  );
  const report: DigestReport = { environments: 0, alerts: 0, emails: 0 };
  for (const environment of environments) {
    await withSystem(deps.db, async (tx) => {
      const alerts = await rowsOf<{ uuid: string; organization_uuid: string; organization_title: string; title: string; open: boolean }>(
        tx,
        sql`update organization_alerts a set digested_at = now()
            from organizations o
            where o.uuid = a.organization_uuid and o.environment_uuid = ${environment.uuid}
              and a.source = 'automatic' and a.digested_at is null
            returning a.uuid, a.organization_uuid, o.title as organization_title, a.title, a.closed_at is null as open, a.published_at`,
      );
      // Closed before the digest: nothing to tell any more.
      const open = alerts.filter((alert) => alert.open);
      if (open.length === 0) return;
      report.environments += 1;
      report.alerts += open.length;
      const byOrganization = new Map<string, { title: string; alerts: string[]; total: number }>();
      for (const alert of open) {
        let entry = byOrganization.get(alert.organization_uuid);
        if (!entry) byOrganization.set(alert.organization_uuid, (entry = { title: alert.organization_title, alerts: [], total: 0 }));
        entry.total += 1;
        if (entry.alerts.length < DIGEST_LISTED_ALERTS) entry.alerts.push(alert.title.slice(0, 300));
      }
      const organizations = [...byOrganization.values()].sort((a, b) => b.total - a.total || a.title.localeCompare(b.title, 'fr'));
      const listed = organizations.slice(0, DIGEST_LISTED_ORGANIZATIONS).map((o) => ({ ...o, title: o.title.slice(0, 200) }));
      const superadmins = await rowsOf<{ email: string; first_name: string }>(
        tx,
        sql`select u.email, u.first_name from environment_users eu join users u on u.uuid = eu.user_uuid
            where eu.environment_uuid = ${environment.uuid} and eu.alert_digest and 'SUPERADMIN' = any(u.roles)
            order by lower(u.email)`,
      );
      for (const superadmin of superadmins) {
        await deps.mail.queue(tx, {
          template: 'alerts-digest',
          to: superadmin.email,
          baseUrl: deps.baseUrl,
          environmentUuid: environment.uuid,
          data: {
            environmentTitle: environment.title.slice(0, 200),
            firstName: superadmin.first_name.trim() || null,
            organizations: listed,
            ...(organizations.length > listed.length ? { totalOrganizations: organizations.length } : {}),
          },
        });
        report.emails += 1;
      }
    });
  }
  return report;
}
