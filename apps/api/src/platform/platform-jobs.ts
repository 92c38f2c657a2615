import { z } from 'zod';
import type { Database } from '../db/client.js';
import type { WriteTx } from '../db/scope.js';
import type { BillingProvider } from './billing/billing.js';
import { sweepIdempotencyKeys } from '../lib/idempotency.js';
import { reportFleetUsage } from './billing/usage.js';
import { defineJob, type JobKind, type Send } from './jobs/define-job.js';
import type { Mailer } from './mail/mailer.js';
import { deliverDueMessages, purgeSentMail, queueMail, type QueueMailInput } from './mail/outbox.js';
import type { MailTemplateName } from './mail/templates.js';
import { cleanupTemporaryObjects } from './storage/files.js';
import type { ObjectStorage } from './storage/storage.js';

const DAY_MS = 86_400_000;
/** Sent messages are kept this long (their subject and recipient: what was sent, when), then purged. */
export const SENT_MAIL_KEPT_DAYS = 90;

type Logger = { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

export type PlatformJobsDeps = { db: Database; mailer: Mailer; storage: ObjectStorage; logger: Logger; billing?: BillingProvider };

/**
 * The platform's own background work, on the job queue (decisions 018, 019, 021): the outbox's
 * delivery every minute (and at once when a message is queued, see MailService), the purge of
 * old sent messages and the cleanup of temporary files, each once a night (Paris time); the
 * subscriptions' quantity reported from the fleets' active vehicles every morning (decision 044);
 * the Idempotency-Keys past their 24 h, every hour (decision 050).
 */
export function platformJobs({ db, mailer, storage, logger, billing }: PlatformJobsDeps) {
  const mailDelivery = defineJob({
    name: 'mail.deliver',
    tenant: false,
    payload: z.object({}),
    schedule: '* * * * *',
    // deliverDueMessages retries each message itself, with its own backoff (decision 018).
    retry: { limit: 0 },
    timeoutSeconds: 600,
    handler: async ({ signal }) => {
      const report = await deliverDueMessages({ db, mailer, limit: 200, signal, logger });
      if (report.sent + report.retried + report.dead > 0) logger.info({ ...report }, 'e-mails : envoi');
    },
  });
  const mailPurge = defineJob({
    name: 'mail.purge',
    tenant: false,
    payload: z.object({}),
    schedule: '30 3 * * *',
    handler: async () => {
      const purged = await purgeSentMail(db, new Date(Date.now() - SENT_MAIL_KEPT_DAYS * DAY_MS));
      if (purged > 0) logger.info({ purged }, 'e-mails envoyés anciens supprimés');
    },
  });
  const storageCleanup = defineJob({
    name: 'storage.cleanup',
    tenant: false,
    payload: z.object({}),
    schedule: '0 3 * * *',
    timeoutSeconds: 3_600,
    handler: async () => {
      const report = await cleanupTemporaryObjects(storage, db);
      logger.info({ ...report }, 'fichiers temporaires : nettoyage');
    },
  });
  const billingUsage = defineJob({
    name: 'billing.usage',
    tenant: false,
    payload: z.object({}),
    schedule: '15 4 * * *',
    timeoutSeconds: 1_800,
    handler: async () => {
      if (!billing) return;
      const report = await reportFleetUsage(db, billing, logger);
      if (report.updated + report.failed > 0) logger.info({ ...report }, 'facturation : véhicules actifs transmis');
    },
  });
  const idempotencySweep = defineJob({
    name: 'idempotency.sweep',
    tenant: false,
    payload: z.object({}),
    // Every hour: a key is replayed for 24 h, then goes (decision 050).
    schedule: '7 * * * *',
    handler: async () => {
      const removed = await sweepIdempotencyKeys(db);
      if (removed > 0) logger.info({ removed }, 'clés d’idempotence expirées supprimées');
    },
  });
  return {
    mailDelivery,
    mailPurge,
    storageCleanup,
    billingUsage,
    idempotencySweep,
    all: [mailDelivery, mailPurge, storageCleanup, billingUsage, idempotencySweep] as JobKind<unknown>[],
  };
}

/** What services use to send an e-mail: in their transaction, delivered by a job (decision 018). */
export type MailService = {
  /**
   * Writes the message to the outbox in the caller's transaction (a rollback sends nothing) and
   * asks for a delivery as soon as it commits, instead of at the next minute.
   */
  queue<K extends MailTemplateName>(tx: WriteTx, input: QueueMailInput<K>): Promise<{ uuid: string }>;
};

export function mailService(send: Send, delivery: ReturnType<typeof platformJobs>['mailDelivery']): MailService {
  return {
    async queue(tx, input) {
      const queued = await queueMail(tx, input);
      // A delivery job per message, committed with it: each sends every message due, so most find
      // little to do; no throttling, which could leave a message to the next minute's run.
      await send(delivery, {}, { tx });
      return queued;
    },
  };
}
