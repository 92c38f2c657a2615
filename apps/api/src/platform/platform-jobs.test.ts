import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-app.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { mailOutbox } from '../db/schema/mail.js';
import { readSystem, withSystem, withTenant } from '../db/scope.js';
import { createOrganization } from '../seed/factories.js';
import { queueMail } from './mail/outbox.js';
import { SENT_MAIL_KEPT_DAYS } from './platform-jobs.js';
import { stage } from './storage/files.js';
import { until } from '../../test/until.js';

/**
 * The platform's services wired together by buildApp (decisions 018, 019, 021): an e-mail queued
 * in a transaction reaches a real SMTP server through the job queue, a rolled-back one never does,
 * the nightly work is scheduled, and /api/ready counts the queue.
 */
let database: DatabaseHandle;
let smtp: TestSmtpServer;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startTestSmtpServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-platform-'));
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const env = (worker: boolean) => ({
  APP_SECRET: 'test-secret-0123456789-0123456789-abcdef',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  PUBLIC_URL: 'https://flotte.exemple.fr',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(smtp.port),
  SMTP_FROM: 'FlotteAssur <no-reply@flotte.exemple.fr>',
  JOBS_WORKER: String(worker),
  JOBS_POLL_INTERVAL_SECONDS: '0.5',
});


const exitNotice = (immatriculation: string, date = '2026-03-12') => ({
  organizationTitle: 'Transports Alpha',
  intermediaryContactName: 'Paul Lefèvre',
  senderName: 'Jeanne Roux',
  movements: [{ movement: 'exit' as const, immatriculation, brand: 'Renault', model: 'Master', category: null, date }],
});

describe('the platform services in the app', () => {
  it('delivers an e-mail queued in a transaction through the job queue, once, and nothing for a rolled-back change', async () => {
    const app = await buildApp(loadConfig(env(true)), database, { serveWeb: false, logger: false });
    try {
      await app.ready();
      const org = await withSystem(database.db, (tx) => createOrganization(tx, { title: 'Transports Alpha' }));
      await expect(
        withTenant(database.db, org.uuid, async (tx) => {
          await app.mail.queue(tx, { template: 'vehicle-movement', to: 'annule@courtier.exemple.fr', data: exitNotice('ZZ-999-ZZ'), baseUrl: 'https://flotte.exemple.fr' });
          throw new Error('le changement échoue');
        }),
      ).rejects.toThrow('le changement échoue');
      await withTenant(database.db, org.uuid, (tx) =>
        app.mail.queue(tx, { template: 'vehicle-movement', to: 'production@courtier.exemple.fr', data: exitNotice('AB-123-CD'), baseUrl: 'https://flotte.exemple.fr' }),
      );
      // Delivered by the job sent with the message, not by the minute's schedule.
      await until(() => smtp.received.some((mail) => mail.envelopeTo.includes('production@courtier.exemple.fr')), 10_000);
      await new Promise((r) => setTimeout(r, 1_500));
      const received = smtp.received.filter((mail) => mail.envelopeTo.includes('production@courtier.exemple.fr'));
      expect(received).toHaveLength(1);
      expect(received[0]!.parsed.text).toContain('AB-123-CD');
      expect(smtp.received.some((mail) => mail.envelopeTo.includes('annule@courtier.exemple.fr'))).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('schedules the outbox every minute and the nightly purge and cleanup, and /api/ready counts the queue', async () => {
    const app = await buildApp(loadConfig(env(false)), database, { serveWeb: false, logger: false });
    try {
      await app.ready();
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(await app.jobs.schedules()).toEqual([
        // Prevention alerts (decision 037): every organization evaluated each morning, then the brokers' digest.
        { name: 'alerts.daily', cron: '30 7 * * *' },
        { name: 'alerts.digest', cron: '0 8 * * *' },
        // Billing (decision 044): each subscription's quantity reported from the fleet's active vehicles.
        { name: 'billing.usage', cron: '15 4 * * *' },
        // The document management's nightly purge of its 30-day trash (modules/documents, issue 14).
        // Each morning, the documents to renew are raised for the alerts and e-mailed to the administrators (issue 14).
        { name: 'documents.expiry-notices', cron: '0 7 * * *' },
        { name: 'documents.purge-trash', cron: '45 3 * * *' },
        // The Idempotency-Keys past their 24 h (decision 050).
        { name: 'idempotency.sweep', cron: '7 * * * *' },
        // The imports' nightly cleanup of abandoned imports (modules/import, issue 13).
        { name: 'import.cleanup', cron: '15 3 * * *' },
        { name: 'mail.deliver', cron: '* * * * *' },
        { name: 'mail.purge', cron: '30 3 * * *' },
        { name: 'storage.cleanup', cron: '0 3 * * *' },
      ]);
      await app.jobs.stop();
      const notReady = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.headers['retry-after']).toBeDefined();
    } finally {
      await app.close();
    }
  });

  it('runs the nightly jobs: old sent e-mails purged, a temporary file older than a day with no row removed, a recent one kept', async () => {
    const app = await buildApp(loadConfig(env(true)), database, { serveWeb: false, logger: false });
    try {
      await app.ready();
      const org = await withSystem(database.db, (tx) => createOrganization(tx, { title: 'Transports Beta' }));
      const old = await stage(app.storage, org.uuid, Readable.from([Buffer.from('abandonné')]), { maxBytes: 1_000 });
      const recent = await stage(app.storage, org.uuid, Readable.from([Buffer.from('en cours')]), { maxBytes: 1_000 });
      const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
      utimesSync(path.join(dataDir, 'media', old.temporaryKey), twoDaysAgo, twoDaysAgo);
      const sentLongAgo = new Date(Date.now() - (SENT_MAIL_KEPT_DAYS + 1) * 86_400_000);
      const [oldMail, newMail] = await withSystem(database.db, async (tx) => {
        const queued = [];
        for (const to of ['ancien@exemple.fr', 'recent@exemple.fr']) {
          queued.push(await queueMail(tx, { template: 'password-reset', to, data: { firstName: 'Camille', token: 'tok_0123456789abcdefghij', expiresInMinutes: 60 }, baseUrl: 'https://flotte.exemple.fr' }));
        }
        await tx.update(mailOutbox).set({ status: 'sent', sentAt: sentLongAgo }).where(eq(mailOutbox.uuid, queued[0]!.uuid));
        await tx.update(mailOutbox).set({ status: 'sent', sentAt: new Date() }).where(eq(mailOutbox.uuid, queued[1]!.uuid));
        return queued;
      });
      const cleanup = app.jobs.kind('storage.cleanup')!;
      const purge = app.jobs.kind('mail.purge')!;
      const ids = await Promise.all([app.jobs.send(cleanup, {}), app.jobs.send(purge, {})]);
      const states = async () => Promise.all([app.jobs.job(cleanup, ids[0]!), app.jobs.job(purge, ids[1]!)]).then((jobs) => jobs.map((job) => job?.state));
      const deadline = Date.now() + 15_000;
      while ((await states()).some((state) => state !== 'completed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await states()).toEqual(['completed', 'completed']);
      expect(await app.storage.exists(old.temporaryKey)).toBe(false);
      expect(await app.storage.exists(recent.temporaryKey)).toBe(true);
      const kept = await readSystem(database.db, (tx) => tx.select({ uuid: mailOutbox.uuid }).from(mailOutbox).where(inArray(mailOutbox.uuid, [oldMail!.uuid, newMail!.uuid])));
      expect(kept.map((row) => row.uuid)).toEqual([newMail!.uuid]);
    } finally {
      await app.close();
    }
  });
});
