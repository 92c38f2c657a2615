import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { defineJob, type Send } from '../../platform/jobs/define-job.js';
import type { MailService } from '../../platform/platform-jobs.js';
import { evaluateOrganization } from './alert-rules.js';
import { sendAlertDigests } from './alerts-digest.service.js';

export type AlertJobsDeps = {
  db: Database;
  mail: () => MailService;
  publicUrl: string | undefined;
  logger: { info(obj: object, msg?: string): void };
};

/** Seconds the evaluation after a write waits, so that a burst of writes is evaluated once. */
export const EVALUATE_AFTER_WRITE_SECONDS = 5;

/**
 * The prevention alerts' background work (issue 16, decision 037): an organization's automatic
 * alerts evaluated after its relevant writes (alerts.evaluate, a tenant job) and every morning for
 * every organization (alerts.daily fans out one alerts.evaluate each); then the brokers' digest.
 */
export function alertJobs({ db, mail, publicUrl, logger }: AlertJobsDeps) {
  const evaluate = defineJob({
    name: 'alerts.evaluate',
    tenant: true,
    payload: z.object({}),
    timeoutSeconds: 300,
    handler: async ({ tenant }) => {
      const report = await tenant.write((tx) => evaluateOrganization(tx, tenant.organizationUuid));
      if (report.raised + report.reopened + report.closed > 0) logger.info({ organizationUuid: tenant.organizationUuid, ...report }, 'alertes de prévention évaluées');
    },
  });
  const daily = defineJob({
    name: 'alerts.daily',
    tenant: false,
    payload: z.object({}),
    // After documents.expiry-notices (7:00), before the digest (8:00), Paris time.
    schedule: '30 7 * * *',
    timeoutSeconds: 1_800,
    handler: async ({ system, send }) => {
      const result = await system.read((tx) => tx.execute(sql`select uuid from organizations order by uuid`));
      const rows = (result as unknown as { rows: { uuid: string }[] }).rows;
      for (const { uuid } of rows) await send(evaluate, { organizationUuid: uuid });
      logger.info({ organizations: rows.length }, 'alertes de prévention : évaluation quotidienne lancée');
    },
  });
  const digest = defineJob({
    name: 'alerts.digest',
    tenant: false,
    payload: z.object({}),
    schedule: '0 8 * * *',
    timeoutSeconds: 1_800,
    handler: async () => {
      const report = await sendAlertDigests({ db, mail: mail(), baseUrl: publicUrl ?? 'http://localhost' });
      if (report.emails > 0) logger.info({ ...report }, 'récapitulatif des alertes envoyé aux superadmins');
    },
  });
  return { evaluate, daily, digest };
}

/**
 * After a write that may change an organization's alerts (claims, drivers, periods, limits,
 * documents, vehicles), its evaluation is queued: a few seconds later, at most one per slot of
 * EVALUATE_AFTER_WRITE_SECONDS (a burst of writes is evaluated once, after the slot's last write).
 */
export function queueEvaluation(send: Send, job: ReturnType<typeof alertJobs>['evaluate'], organizationUuid: string, now = Date.now()) {
  const slot = EVALUATE_AFTER_WRITE_SECONDS * 1000;
  const slotEnd = (Math.floor(now / slot) + 1) * slot;
  // Runs one second after its slot ends: a write of the slot that was still committing is seen.
  return send(job, { organizationUuid }, { startAfter: new Date(slotEnd + 1000), singleton: { key: organizationUuid, seconds: EVALUATE_AFTER_WRITE_SECONDS } });
}
