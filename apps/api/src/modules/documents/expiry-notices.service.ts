import { DOCUMENT_EXPIRY_NOTICE_DAYS, todayIso } from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { type ReadTx, withTenant } from '../../db/scope.js';
import type { MailService } from '../../platform/platform-jobs.js';
import * as repo from './expiry-notices.repository.js';

/** The documents an e-mail lists one by one; beyond, it counts them. */
export const LISTED_EXPIRING_DOCUMENTS = 200;
/** The root's name, as the GED's breadcrumb shows it. */
const ROOT_FOLDER = 'Mes documents';

export type ExpiryNoticeDeps = { db: Database; mail: MailService; baseUrl: string };
export type ExpiryNoticeReport = { organizations: number; notices: number; emails: number };

function addDays(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * The daily expiry run (issue 14): every live document expired or expiring within
 * DOCUMENT_EXPIRY_NOTICE_DAYS (Paris date) is recorded once per expiry date in
 * document_expiry_notices — what the alerts feature reads — and each administrator of its
 * organization gets one e-mail listing that organization's documents raised today. Each
 * organization's notices and e-mails commit together, under its row-level security: a failure
 * leaves it for the retry, and a rerun the same day raises nothing twice. No administrator: the
 * notices are recorded all the same, for the alerts.
 */
export async function raiseExpiryNotices(
  deps: ExpiryNoticeDeps,
  readAll: <T>(fn: (tx: ReadTx) => Promise<T>) => Promise<T>,
  today: string = todayIso(),
): Promise<ExpiryNoticeReport> {
  const until = addDays(today, DOCUMENT_EXPIRY_NOTICE_DAYS);
  const organizations = await readAll((tx) => repo.organizationsToNotify(tx, until));
  const report: ExpiryNoticeReport = { organizations: 0, notices: 0, emails: 0 };
  for (const organizationUuid of organizations) {
    await withTenant(deps.db, organizationUuid, async (tx) => {
      const raised = await repo.raiseNotices(tx, until);
      if (raised.length === 0) return;
      report.organizations += 1;
      report.notices += raised.length;
      const admins = await repo.administrators(tx);
      if (admins.length === 0) return;
      const organizationTitle = (await repo.organizationTitle(tx)) ?? 'Votre organisation';
      const documents = raised.slice(0, LISTED_EXPIRING_DOCUMENTS).map((notice) => ({ name: notice.name, folder: notice.folder ?? ROOT_FOLDER, expiresOn: notice.expiresOn }));
      for (const admin of admins) {
        await deps.mail.queue(tx, {
          template: 'document-expiry',
          to: admin.email,
          baseUrl: deps.baseUrl,
          data: {
            organizationTitle,
            firstName: admin.firstName.trim() || null,
            today,
            noticeDays: DOCUMENT_EXPIRY_NOTICE_DAYS,
            documents,
            ...(raised.length > documents.length ? { total: raised.length } : {}),
          },
        });
        report.emails += 1;
      }
    });
  }
  return report;
}
