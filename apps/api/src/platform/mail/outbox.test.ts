import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../config.js';
import { type DatabaseHandle, openPostgres } from '../../db/client.js';
import { mailOutbox } from '../../db/schema/mail.js';
import { environments } from '../../db/schema/environments.js';
import { readSystem, readTenant, withSystem, withTenant } from '../../db/scope.js';
import { createEnvironment, createOrganization } from '../../seed/factories.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';
import { createTestDatabase } from '../../../test/test-app.js';
import { createMailer, type Mailer, type OutgoingMail } from './mailer.js';
import { backoffMs, deliverDueMessages, mailBaseUrl, nextMailDueAt, purgeSentMail, queueMail } from './outbox.js';

const FROM = 'FlotteAssur <no-reply@flotte.exemple.fr>';
const BASE_URL = 'https://flotte.exemple.fr';
const TOKEN = 'tok_0123456789abcdefghij';
const smtpConfig = (port: number, auth: { user?: string; password?: string } = {}): Config['smtp'] => ({
  host: '127.0.0.1',
  port,
  secure: false,
  user: auth.user,
  password: auth.password,
  from: FROM,
});

let database: DatabaseHandle;
let smtp: TestSmtpServer;
let mailer: Mailer;
let orgA: string;
let orgB: string;
let dataDir: string;

type LogLine = { level: string; obj: object; msg: string | undefined };
function captureLogger() {
  const lines: LogLine[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

const exitNotice = (immatriculation = 'AB-123-CD', date = '2026-03-12') => ({
  organizationTitle: 'Transports Alpha',
  intermediaryContactName: 'Paul Lefèvre',
  senderName: 'Jeanne Roux',
  movements: [{ movement: 'exit' as const, immatriculation, brand: 'Renault', model: 'Master', category: null, date }],
});

const queueExit = (to = 'production@courtier.exemple.fr', immatriculation?: string) =>
  withTenant(database.db, orgA, (tx) => queueMail(tx, { template: 'vehicle-movement', to, data: exitNotice(immatriculation), baseUrl: BASE_URL }));

const queueRecovery = (to = 'camille@exemple.fr') =>
  withSystem(database.db, (tx) =>
    queueMail(tx, { template: 'password-reset', to, data: { firstName: 'Camille', token: TOKEN, expiresInMinutes: 60 }, baseUrl: BASE_URL }),
  );

const rowOf = async (uuid: string) => (await readSystem(database.db, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.uuid, uuid))))[0]!;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ orgA, orgB } = await withSystem(database.db, async (tx) => {
    const environment = await createEnvironment(tx, { title: 'Cabinet Durand' });
    const a = await createOrganization(tx, { title: 'Transports Alpha', environmentUuid: environment.uuid });
    const b = await createOrganization(tx, { title: 'Logistique Bêta' });
    return { orgA: a.uuid, orgB: b.uuid };
  }));
  smtp = await startTestSmtpServer();
  mailer = createMailer({ smtp: smtpConfig(smtp.port), dataDir: '/nonexistent' });
  dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-mail-'));
});
afterAll(async () => {
  mailer.close();
  await smtp.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await withSystem(database.db, (tx) => tx.delete(mailOutbox));
  smtp.received.length = 0;
  smtp.failNextData.length = 0;
  smtp.refuseRecipient.clear();
});

describe('queueMail', () => {
  it("writes the message in the caller's transaction, for its organization, under its environment's name", async () => {
    const { uuid } = await queueExit();
    const seenByA = await readTenant(database.db, orgA, (tx) => tx.select().from(mailOutbox));
    expect(seenByA).toHaveLength(1);
    expect(seenByA[0]).toMatchObject({ uuid, organizationUuid: orgA, status: 'pending', attempts: 0, template: 'vehicle-movement', recipient: 'production@courtier.exemple.fr' });
    expect(seenByA[0]!.text).toContain('Cabinet Durand');
    expect(seenByA[0]!.html).toContain('par Cabinet Durand via FlotteAssur');
    expect(await readTenant(database.db, orgB, (tx) => tx.select().from(mailOutbox))).toEqual([]);
  });

  it('queues nothing when the change that causes the message is rolled back', async () => {
    await expect(
      withTenant(database.db, orgA, async (tx) => {
        await queueMail(tx, { template: 'vehicle-movement', to: 'production@courtier.exemple.fr', data: exitNotice(), baseUrl: BASE_URL });
        throw new Error('changement annulé');
      }),
    ).rejects.toThrow('changement annulé');
    expect(await readSystem(database.db, (tx) => tx.select().from(mailOutbox))).toEqual([]);
    expect(await deliverDueMessages({ db: database.db, mailer })).toEqual({ sent: 0, retried: 0, dead: 0 });
    expect(smtp.received).toEqual([]);
  });

  it('keeps account recovery in system scope: no organization sees it', async () => {
    const { uuid } = await queueRecovery();
    expect(await rowOf(uuid)).toMatchObject({ organizationUuid: null, status: 'pending' });
    expect((await rowOf(uuid)).subject).toBe('Réinitialisation de votre mot de passe FlotteAssur');
    for (const org of [orgA, orgB]) expect(await readTenant(database.db, org, (tx) => tx.select().from(mailOutbox))).toEqual([]);
  });

  it("shows the given environment's name on a message of no organization", async () => {
    const environment = await withSystem(database.db, (tx) => createEnvironment(tx, { title: 'Cabinet Martin' }));
    const { uuid } = await withSystem(database.db, (tx) =>
      queueMail(tx, {
        template: 'password-reset',
        to: 'client@exemple.fr',
        data: { firstName: 'Lou', token: TOKEN, expiresInMinutes: 60 },
        baseUrl: BASE_URL,
        environmentUuid: environment.uuid,
      }),
    );
    expect(await rowOf(uuid)).toMatchObject({ organizationUuid: null, subject: 'Réinitialisation de votre mot de passe Cabinet Martin' });
  });

  it("shows its environment's logo, made absolute under the base URL, once the broker has one (decision 042)", async () => {
    const logoUrl = '/api/environment/3e000000-0000-4000-8000-00000000a042/logo/v1';
    const environment = await withSystem(database.db, async (tx) => {
      const created = await createEnvironment(tx, { title: 'Cabinet Logo' });
      await tx.update(environments).set({ logoUrl }).where(eq(environments.uuid, created.uuid));
      return created;
    });
    const { uuid } = await withSystem(database.db, (tx) =>
      queueMail(tx, { template: 'password-reset', to: 'logo@exemple.fr', data: { firstName: 'Lou', token: TOKEN, expiresInMinutes: 60 }, baseUrl: BASE_URL, environmentUuid: environment.uuid }),
    );
    expect((await rowOf(uuid)).html).toContain(`src="${BASE_URL}${logoUrl}"`);
    // Without one, no image at all.
    expect((await queueRecovery().then(({ uuid: plain }) => rowOf(plain))).html).not.toContain('<img');
  });

  it("refuses a message for another organization from a tenant's transaction", async () => {
    await expect(
      withTenant(database.db, orgA, (tx) =>
        queueMail(tx, { template: 'vehicle-movement', to: 'x@exemple.fr', data: exitNotice(), baseUrl: BASE_URL, organizationUuid: orgB }),
      ),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/row-level security/) } });
    expect(await readSystem(database.db, (tx) => tx.select().from(mailOutbox))).toEqual([]);
  });

  it('refuses a bad recipient or data that does not fit the template, writing nothing', async () => {
    await expect(
      withTenant(database.db, orgA, (tx) => queueMail(tx, { template: 'vehicle-movement', to: 'pas une adresse', data: exitNotice(), baseUrl: BASE_URL })),
    ).rejects.toThrow();
    await expect(
      withTenant(database.db, orgA, (tx) =>
        queueMail(tx, { template: 'vehicle-movement', to: 'x@exemple.fr', data: exitNotice(undefined, 'hier'), baseUrl: BASE_URL }),
      ),
    ).rejects.toThrow();
    expect(await readSystem(database.db, (tx) => tx.select().from(mailOutbox))).toEqual([]);
  });

  it("builds links from PUBLIC_URL, else from the request's origin", () => {
    expect(mailBaseUrl('https://flotte.exemple.fr', { protocol: 'http', host: 'localhost:3000' })).toBe('https://flotte.exemple.fr');
    expect(mailBaseUrl(undefined, { protocol: 'http', host: 'localhost:3000' })).toBe('http://localhost:3000');
  });
});

describe('delivery over SMTP', () => {
  it('delivers each message once: headers, French text and link arrive at the server', async () => {
    const exit = await queueExit();
    const recovery = await queueRecovery();
    const { lines, logger } = captureLogger();
    expect(await deliverDueMessages({ db: database.db, mailer, logger })).toEqual({ sent: 2, retried: 0, dead: 0 });
    expect(smtp.received).toHaveLength(2);

    const reset = smtp.received.find((m) => m.envelopeTo.includes('camille@exemple.fr'))!;
    expect(reset.envelopeFrom).toBe('no-reply@flotte.exemple.fr');
    expect(reset.parsed.from?.value).toEqual([{ name: 'FlotteAssur', address: 'no-reply@flotte.exemple.fr' }]);
    expect(reset.parsed.to).toMatchObject({ text: 'camille@exemple.fr' });
    expect(reset.parsed.subject).toBe('Réinitialisation de votre mot de passe FlotteAssur');
    expect(reset.parsed.messageId).toBe(`<${recovery.uuid}@flotte.exemple.fr>`);
    expect(reset.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(reset.parsed.text).toContain('Bonjour Camille,');
    expect(reset.parsed.text).toContain(`https://flotte.exemple.fr/recover/password?token=${TOKEN}`);
    expect(reset.parsed.html).toContain(`href="https://flotte.exemple.fr/recover/password?token=${TOKEN}"`);

    const notice = smtp.received.find((m) => m.envelopeTo.includes('production@courtier.exemple.fr'))!;
    expect(notice.parsed.subject).toBe('Sortie de flotte : AB-123-CD (Transports Alpha)');
    expect(notice.parsed.messageId).toBe(`<${exit.uuid}@flotte.exemple.fr>`);
    expect(notice.parsed.text).toContain('- Date de sortie : 12 mars 2026');

    // Sent rows keep no body (it may carry a one-time link); a second run sends nothing more.
    expect(await rowOf(recovery.uuid)).toMatchObject({ status: 'sent', attempts: 1, html: null, text: null, lastError: null, sentAt: expect.any(Date) });
    expect(await deliverDueMessages({ db: database.db, mailer })).toEqual({ sent: 0, retried: 0, dead: 0 });
    expect(smtp.received).toHaveLength(2);

    // The log has the ids, never a body or the link.
    expect(lines.filter((l) => l.level === 'info').map((l) => l.obj)).toEqual(
      expect.arrayContaining([expect.objectContaining({ outboxUuid: recovery.uuid, messageId: `<${recovery.uuid}@flotte.exemple.fr>` })]),
    );
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    expect(JSON.stringify(lines)).not.toContain('Bonjour');
  });

  it('sends no extra header or recipient whatever the data holds', async () => {
    await withTenant(database.db, orgA, (tx) =>
      queueMail(tx, {
        template: 'vehicle-movement',
        to: 'production@courtier.exemple.fr',
        data: { ...exitNotice(), organizationTitle: 'Alpha\r\nBcc: espion@exemple.fr', senderName: 'X\nTo: espion@exemple.fr' },
        baseUrl: BASE_URL,
      }),
    );
    expect(await deliverDueMessages({ db: database.db, mailer })).toEqual({ sent: 1, retried: 0, dead: 0 });
    const [received] = smtp.received;
    expect(received!.envelopeTo).toEqual(['production@courtier.exemple.fr']);
    expect(received!.parsed.bcc).toBeUndefined();
    expect(received!.parsed.to).toMatchObject({ value: [{ address: 'production@courtier.exemple.fr' }] });
    expect(received!.parsed.subject).toBe('Sortie de flotte : AB-123-CD (Alpha Bcc: espion@exemple.fr)');
  });

  it('authenticates with SMTP_USER and SMTP_PASSWORD, and retries (without logging it) when the password is refused', async () => {
    const guarded = await startTestSmtpServer({ auth: { user: 'flotte', password: 'secret-smtp-1' } });
    const wrong = createMailer({ smtp: smtpConfig(guarded.port, { user: 'flotte', password: 'mauvais-secret' }), dataDir });
    const right = createMailer({ smtp: smtpConfig(guarded.port, { user: 'flotte', password: 'secret-smtp-1' }), dataDir });
    try {
      const { uuid } = await queueRecovery();
      const { lines, logger } = captureLogger();
      const t0 = new Date(Date.now() + 1_000);
      // A refused password is the account's problem, not the message's: it is retried.
      expect(await deliverDueMessages({ db: database.db, mailer: wrong, now: () => t0, logger })).toEqual({ sent: 0, retried: 1, dead: 0 });
      expect(await rowOf(uuid)).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('EAUTH') });
      expect(JSON.stringify(lines)).not.toContain('mauvais-secret');
      const later = new Date(t0.getTime() + backoffMs(1));
      expect(await deliverDueMessages({ db: database.db, mailer: right, now: () => later })).toEqual({ sent: 1, retried: 0, dead: 0 });
      expect(guarded.received).toHaveLength(1);
      expect(guarded.received[0]!.user).toBe('flotte');
    } finally {
      wrong.close();
      right.close();
      await guarded.close();
    }
  });

  it('retries a temporary refusal with exponential backoff, then delivers', async () => {
    const { uuid } = await queueRecovery();
    smtp.failNextData.push(451, 451);
    let now = new Date(Date.now() + 1_000);
    const clock = () => now;
    expect(await deliverDueMessages({ db: database.db, mailer, now: clock })).toEqual({ sent: 0, retried: 1, dead: 0 });
    expect(await rowOf(uuid)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: new Date(now.getTime() + 30_000), lastError: expect.stringContaining('451') });
    expect(await nextMailDueAt(database.db)).toEqual(new Date(now.getTime() + 30_000));

    // Not due yet: nothing happens.
    now = new Date(now.getTime() + 29_000);
    expect(await deliverDueMessages({ db: database.db, mailer, now: clock })).toEqual({ sent: 0, retried: 0, dead: 0 });

    now = new Date(now.getTime() + 1_000);
    expect(await deliverDueMessages({ db: database.db, mailer, now: clock })).toEqual({ sent: 0, retried: 1, dead: 0 });
    expect(await rowOf(uuid)).toMatchObject({ attempts: 2, nextAttemptAt: new Date(now.getTime() + 60_000) });

    now = new Date(now.getTime() + 60_000);
    expect(await deliverDueMessages({ db: database.db, mailer, now: clock })).toEqual({ sent: 1, retried: 0, dead: 0 });
    expect(await rowOf(uuid)).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(smtp.received).toHaveLength(1);
    expect(await nextMailDueAt(database.db)).toBeNull();
  });

  it('gives a message up after the last attempt', async () => {
    const { uuid } = await queueRecovery();
    smtp.failNextData.push(451, 451, 451);
    let now = new Date(Date.now() + 1_000);
    const { lines, logger } = captureLogger();
    const policy = { maxAttempts: 3 };
    for (const expected of [{ retried: 1, dead: 0 }, { retried: 1, dead: 0 }, { retried: 0, dead: 1 }]) {
      expect(await deliverDueMessages({ db: database.db, mailer, now: () => now, policy, logger })).toEqual({ sent: 0, ...expected });
      now = new Date(now.getTime() + backoffMs(3));
    }
    expect(await rowOf(uuid)).toMatchObject({ status: 'dead', attempts: 3, lastError: expect.stringContaining('451') });
    expect(await deliverDueMessages({ db: database.db, mailer, now: () => new Date(now.getTime() + 86_400_000) })).toEqual({ sent: 0, retried: 0, dead: 0 });
    expect(lines.map((l) => l.level)).toEqual(['warn', 'warn', 'error']);
    expect(smtp.received).toEqual([]);
  });

  it('gives up a message whose deliverers kept stopping while sending it', async () => {
    const { uuid } = await queueRecovery();
    const now = new Date(Date.now() + 1_000);
    // As after three deliverers each stopped mid-send: claimed three times, lease over.
    await withSystem(database.db, (tx) => tx.update(mailOutbox).set({ status: 'sending', attempts: 3, nextAttemptAt: now }).where(eq(mailOutbox.uuid, uuid)));
    expect(await deliverDueMessages({ db: database.db, mailer, now: () => now, policy: { maxAttempts: 3 } })).toEqual({ sent: 0, retried: 0, dead: 1 });
    expect(await rowOf(uuid)).toMatchObject({ status: 'dead', attempts: 4, lastError: expect.stringContaining('Bail expiré') });
    expect(smtp.received).toEqual([]);
  });

  it('gives up at once a sent message set back to pending, whose body is gone', async () => {
    const { uuid } = await queueRecovery();
    await deliverDueMessages({ db: database.db, mailer });
    await withSystem(database.db, (tx) => tx.update(mailOutbox).set({ status: 'pending', nextAttemptAt: new Date(0) }).where(eq(mailOutbox.uuid, uuid)));
    expect(await deliverDueMessages({ db: database.db, mailer })).toEqual({ sent: 0, retried: 0, dead: 1 });
    expect(await rowOf(uuid)).toMatchObject({ status: 'dead', lastError: expect.stringContaining('body missing') });
    expect(smtp.received).toHaveLength(1);
  });

  it('gives up at once when the server refuses the recipient for good, and goes on with the others', async () => {
    smtp.refuseRecipient.set('inconnu@exemple.fr', 550);
    const refused = await queueRecovery('inconnu@exemple.fr');
    await queueExit();
    expect(await deliverDueMessages({ db: database.db, mailer })).toEqual({ sent: 1, retried: 0, dead: 1 });
    expect(await rowOf(refused.uuid)).toMatchObject({ status: 'dead', attempts: 1, lastError: expect.stringContaining('550') });
    expect(smtp.received.map((m) => m.envelopeTo)).toEqual([['production@courtier.exemple.fr']]);
  });

  it('claims no further message once its signal is aborted', async () => {
    await queueRecovery('un@exemple.fr');
    await queueRecovery('deux@exemple.fr');
    const controller = new AbortController();
    const stopping: Mailer = {
      kind: 'smtp',
      async send(mail) {
        const result = await mailer.send(mail);
        controller.abort();
        return result;
      },
      close: () => undefined,
    };
    expect(await deliverDueMessages({ db: database.db, mailer: stopping, signal: controller.signal })).toEqual({ sent: 1, retried: 0, dead: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(await deliverDueMessages({ db: database.db, mailer })).toEqual({ sent: 1, retried: 0, dead: 0 });
    expect(smtp.received).toHaveLength(2);
  });

  it('retries when the server cannot be reached', async () => {
    const down = await startTestSmtpServer();
    const port = down.port;
    await down.close();
    const unreachable = createMailer({ smtp: smtpConfig(port), dataDir });
    const { uuid } = await queueRecovery();
    expect(await deliverDueMessages({ db: database.db, mailer: unreachable })).toEqual({ sent: 0, retried: 1, dead: 0 });
    expect(await rowOf(uuid)).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringMatching(/ECONNECTION|ESOCKET|ECONNREFUSED/) });
    unreachable.close();
  });

  it('sends again, with the same Message-ID, a message whose deliverer stopped after the server accepted it', async () => {
    const { uuid } = await queueRecovery();
    const t0 = new Date(Date.now() + 1_000);
    // The first deliverer hands the message to the server, then freezes before marking it sent.
    let thaw!: () => void;
    const frozen = new Promise<void>((resolve) => (thaw = resolve));
    let accepted!: () => void;
    const wasAccepted = new Promise<void>((resolve) => (accepted = resolve));
    const freezing: Mailer = {
      kind: 'smtp',
      async send(mail: OutgoingMail) {
        const result = await mailer.send(mail);
        accepted();
        await frozen;
        return result;
      },
      close: () => undefined,
    };
    const { lines, logger } = captureLogger();
    const first = deliverDueMessages({ db: database.db, mailer: freezing, now: () => t0, logger, policy: { leaseMs: 60_000 } });
    await wasAccepted;
    expect(await rowOf(uuid)).toMatchObject({ status: 'sending', attempts: 1, nextAttemptAt: new Date(t0.getTime() + 60_000) });

    // While the lease runs, no one else sends it.
    expect(await deliverDueMessages({ db: database.db, mailer, now: () => new Date(t0.getTime() + 59_000) })).toEqual({ sent: 0, retried: 0, dead: 0 });
    // Past it, another deliverer does, under the same Message-ID.
    expect(await deliverDueMessages({ db: database.db, mailer, now: () => new Date(t0.getTime() + 60_000) })).toEqual({ sent: 1, retried: 0, dead: 0 });
    expect(smtp.received.map((m) => m.parsed.messageId)).toEqual([`<${uuid}@flotte.exemple.fr>`, `<${uuid}@flotte.exemple.fr>`]);

    // The first one wakes up: the row is no longer its to settle.
    thaw();
    expect(await first).toEqual({ sent: 1, retried: 0, dead: 0 });
    expect(await rowOf(uuid)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringContaining('bail') })]);
  });
});

describe('purgeSentMail', () => {
  it('forgets sent messages older than the date, keeps the rest', async () => {
    smtp.refuseRecipient.set('inconnu@exemple.fr', 550);
    const old = await queueRecovery('ancien@exemple.fr');
    const dead = await queueRecovery('inconnu@exemple.fr');
    const t0 = new Date(Date.now() + 1_000);
    await deliverDueMessages({ db: database.db, mailer, now: () => t0 });
    const recent = await queueRecovery('recent@exemple.fr');
    const t1 = new Date(t0.getTime() + 86_400_000);
    await deliverDueMessages({ db: database.db, mailer, now: () => t1 });
    const pending = await queueRecovery('attente@exemple.fr');

    expect(await purgeSentMail(database.db, new Date(t1.getTime() - 1))).toBe(1);
    const left = await readSystem(database.db, (tx) => tx.select({ uuid: mailOutbox.uuid, status: mailOutbox.status }).from(mailOutbox));
    expect(left).toEqual(
      expect.arrayContaining([
        { uuid: dead.uuid, status: 'dead' },
        { uuid: recent.uuid, status: 'sent' },
        { uuid: pending.uuid, status: 'pending' },
      ]),
    );
    expect(left.map((r) => r.uuid)).not.toContain(old.uuid);
  });
});

describe('two deliverers at once', () => {
  let second: DatabaseHandle | undefined;
  afterEach(async () => {
    await second?.close();
    second = undefined;
  });

  it('deliver each message exactly once', async () => {
    const count = 24;
    await withTenant(database.db, orgA, async (tx) => {
      for (let i = 0; i < count; i++) {
        await queueMail(tx, { template: 'vehicle-movement', to: `production+${i}@courtier.exemple.fr`, data: exitNotice(`AA-${String(100 + i)}-ZZ`), baseUrl: BASE_URL });
      }
    });
    // On PostgreSQL, two pools as two API processes would have; PGlite has one connection per
    // process, so there the two deliverers share it.
    let other = database.db;
    if (database.kind === 'postgres') {
      second = await openPostgres(database.pool!.options.connectionString!, { migrate: false, max: 2 });
      other = second.db;
    }
    const [a, b] = await Promise.all([
      deliverDueMessages({ db: database.db, mailer, limit: count }),
      deliverDueMessages({ db: other, mailer, limit: count }),
    ]);
    expect(a.sent + b.sent).toBe(count);
    expect(a.sent).toBeGreaterThan(0);
    expect(b.sent).toBeGreaterThan(0);
    expect(smtp.received).toHaveLength(count);
    expect(new Set(smtp.received.map((m) => m.parsed.messageId)).size).toBe(count);
    expect(new Set(smtp.received.flatMap((m) => m.envelopeTo)).size).toBe(count);
    const statuses = await readSystem(database.db, (tx) =>
      tx.select({ status: mailOutbox.status, attempts: mailOutbox.attempts, n: sql<number>`count(*)::int` }).from(mailOutbox).groupBy(mailOutbox.status, mailOutbox.attempts),
    );
    expect(statuses).toEqual([{ status: 'sent', attempts: 1, n: count }]);
  });
});

describe('without SMTP: one .eml file per message', () => {
  it('writes the message under DATA_DIR/mail and logs its path with the Message-ID, not its body', async () => {
    const files = createMailer({ smtp: { host: undefined, port: 587, secure: false, user: undefined, password: undefined, from: FROM }, dataDir });
    expect(files.kind).toBe('file');
    const { uuid } = await queueRecovery();
    // The server's own logger (pino), as the job will pass it.
    const output: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void output.push(line) });
    expect(await deliverDueMessages({ db: database.db, mailer: files, logger })).toEqual({ sent: 1, retried: 0, dead: 0 });

    const file = path.join(dataDir, 'mail', `${uuid}.eml`);
    expect(readdirSync(path.join(dataDir, 'mail'))).toEqual([`${uuid}.eml`]);
    const parsed = await simpleParser(readFileSync(file));
    expect(parsed.subject).toBe('Réinitialisation de votre mot de passe FlotteAssur');
    expect(parsed.to).toMatchObject({ text: 'camille@exemple.fr' });
    expect(parsed.messageId).toBe(`<${uuid}@flotte.exemple.fr>`);
    expect(parsed.text).toContain(`https://flotte.exemple.fr/recover/password?token=${TOKEN}`);

    expect(output).toHaveLength(1);
    expect(JSON.parse(output[0]!)).toMatchObject({ level: 30, outboxUuid: uuid, messageId: `<${uuid}@flotte.exemple.fr>`, file, msg: `e-mail enregistré : ${file}` });
    expect(output[0]).not.toContain(TOKEN);
    expect(output[0]).not.toContain('Bonjour');
    files.close();
  });
});
