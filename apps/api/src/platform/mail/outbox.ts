import { and, asc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { environments } from '../../db/schema/environments.js';
import { mailOutbox } from '../../db/schema/mail.js';
import { organizations } from '../../db/schema/organizations.js';
import { readSystem, withSystem, type WriteTx } from '../../db/scope.js';
import { observationsOf } from '../metrics/observations.js';
import type { Mailer } from './mailer.js';
import { type Brand, DEFAULT_BRAND, type MailTemplate, renderMail } from './render.js';
import { MAIL_TEMPLATES, type MailTemplateData, type MailTemplateName } from './templates.js';

/**
 * The outbox (decision 018): a request never talks to a mail server. It writes the message in
 * the transaction of the change that causes it — a rolled-back change sends nothing — and a job
 * delivers due messages, with retries and backoff, once even with several API processes.
 */

export type QueueMailInput<K extends MailTemplateName> = {
  template: K;
  to: string;
  data: MailTemplateData<K>;
  /** Where links point: config.publicUrl, else the request's origin (mailBaseUrl). */
  baseUrl: string;
  /**
   * The organization the message belongs to. Omitted: the transaction's own organization in a
   * tenant scope (withTenant), none in system scope (withSystem: account recovery), where only
   * flotte_system sees the row.
   */
  organizationUuid?: string;
  /**
   * The environment whose name (and logo) a message of no organization shows — account
   * recovery of a broker's client, say. Ignored when the message has an organization: its
   * organization's environment is shown.
   */
  environmentUuid?: string;
};

const RecipientSchema = z.email().max(254);

/**
 * The name and logo (decision 042: its versioned public URL, made absolute by the renderer) of the
 * message's environment: its organization's, else the one given, else the product's.
 */
async function brandOf(tx: WriteTx, organizationUuid: string | undefined, environmentUuid: string | undefined): Promise<Brand> {
  const [row] = await tx
    .select({ title: environments.title, logoUrl: environments.logoUrl })
    .from(organizations)
    .innerJoin(environments, eq(environments.uuid, organizations.environmentUuid))
    .where(eq(organizations.uuid, organizationUuid ?? sql`app_current_org()`))
    .limit(1);
  if (row) return { name: row.title, logoUrl: row.logoUrl };
  if (environmentUuid && !organizationUuid) {
    const [environment] = await tx
      .select({ title: environments.title, logoUrl: environments.logoUrl })
      .from(environments)
      .where(eq(environments.uuid, environmentUuid))
      .limit(1);
    if (environment) return { name: environment.title, logoUrl: environment.logoUrl };
  }
  return DEFAULT_BRAND;
}

/**
 * Renders a message and writes it to the outbox in the caller's transaction. Throws (and so
 * rolls the caller back) when the data does not fit the template: that is a programming error.
 */
export async function queueMail<K extends MailTemplateName>(tx: WriteTx, input: QueueMailInput<K>): Promise<{ uuid: string }> {
  const to = RecipientSchema.parse(input.to);
  // The union of templates is not callable with the union of their data: widen once, here.
  const template: MailTemplate = MAIL_TEMPLATES[input.template];
  const brand = await brandOf(tx, input.organizationUuid, input.environmentUuid);
  const mail = renderMail(template, input.data, { baseUrl: input.baseUrl, brand });
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      organizationUuid: input.organizationUuid ?? sql`app_current_org()`,
      template: input.template,
      recipient: to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    })
    .returning({ uuid: mailOutbox.uuid });
  return row!;
}

/** PUBLIC_URL when set, else the origin the request came to (a local or development set-up). */
export function mailBaseUrl(publicUrl: string | undefined, request: { protocol: string; host: string }): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

// ---------------------------------------------------------------------------------------------
// Delivery.

export type DeliveryPolicy = Readonly<{
  /** Attempts before a message is dead. */
  maxAttempts: number;
  /** Wait after the first failure; doubles after each one… */
  backoffBaseMs: number;
  /** …up to this. */
  backoffMaxMs: number;
  /**
   * How long a claimed message stays with its deliverer. Past it, another deliverer may send it
   * again (the first one crashed): longer than the mailer's worst case (10 s connection + 10 s
   * greeting + 30 s of silence per step).
   */
  leaseMs: number;
}>;

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = Object.freeze({
  maxAttempts: 8,
  backoffBaseMs: 30_000,
  backoffMaxMs: 60 * 60_000,
  leaseMs: 5 * 60_000,
});

/** Wait before the attempt after the n-th failed one: 30 s, 1 min, 2 min, … capped at 1 h. */
export function backoffMs(failedAttempts: number, policy: DeliveryPolicy = DEFAULT_DELIVERY_POLICY): number {
  return Math.min(policy.backoffBaseMs * 2 ** Math.max(0, failedAttempts - 1), policy.backoffMaxMs);
}

type Logger = Readonly<{
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}>;

export type DeliverOptions = Readonly<{
  db: Database;
  mailer: Mailer;
  /** Messages handled by this call at most (each claimed one at a time). */
  limit?: number;
  /** The clock (tests): due means next_attempt_at <= now. */
  now?: () => Date;
  policy?: Partial<DeliveryPolicy>;
  logger?: Logger;
  /** The job's signal: once aborted (timeout, shutdown), no further message is claimed. */
  signal?: AbortSignal;
}>;

export type DeliveryReport = { sent: number; retried: number; dead: number };

type Claimed = { uuid: string; recipient: string; subject: string; html: string | null; text: string | null; attempts: number };

/**
 * Takes the most overdue message no one else holds and leases it: SKIP LOCKED makes a second
 * deliverer pass over a row being claimed, and the lease (next_attempt_at moved to its end)
 * keeps the claimed row from being due again while it is being sent.
 */
async function claimOne(db: Database, now: Date, leaseMs: number): Promise<Claimed | undefined> {
  return withSystem(db, async (tx) => {
    const due = tx
      .select({ uuid: mailOutbox.uuid })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.status, ['pending', 'sending']), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await tx
      .update(mailOutbox)
      .set({ status: 'sending', attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + leaseMs) })
      .where(inArray(mailOutbox.uuid, due))
      .returning({
        uuid: mailOutbox.uuid,
        recipient: mailOutbox.recipient,
        subject: mailOutbox.subject,
        html: mailOutbox.html,
        text: mailOutbox.text,
        attempts: mailOutbox.attempts,
      });
    return row;
  });
}

/** Only the deliverer holding the lease (same attempt number) may settle the row. */
function held(message: Claimed) {
  return and(eq(mailOutbox.uuid, message.uuid), eq(mailOutbox.status, 'sending'), eq(mailOutbox.attempts, message.attempts));
}

/** A refusal of this very message (bad recipient, rejected content), not of the connection or the account. */
function isPermanent(error: unknown): boolean {
  const e = error as { permanent?: boolean; code?: string };
  return e.permanent === true && (e.code === 'EENVELOPE' || e.code === 'EMESSAGE');
}

function describeError(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const text = `${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}`;
  return text.slice(0, 500);
}

/**
 * Delivers the due messages, one claim at a time, until none is due or `limit` were handled.
 * What the mail job runs; safe to run in several processes at once.
 */
export async function deliverDueMessages(options: DeliverOptions): Promise<DeliveryReport> {
  const policy = { ...DEFAULT_DELIVERY_POLICY, ...options.policy };
  const clock = options.now ?? (() => new Date());
  const limit = options.limit ?? 50;
  const report: DeliveryReport = { sent: 0, retried: 0, dead: 0 };

  for (let handled = 0; handled < limit && !options.signal?.aborted; handled++) {
    const message = await claimOne(options.db, clock(), policy.leaseMs);
    if (!message) break;
    if (message.attempts > policy.maxAttempts) {
      // Its deliverers kept stopping during the send (a lease ran out each time): give it up
      // rather than let it take every process down in turn.
      await withSystem(options.db, (tx) =>
        tx.update(mailOutbox).set({ status: 'dead', lastError: 'Bail expiré à chaque essai : envoi abandonné' }).where(held(message)),
      );
      report.dead++;
      observationsOf(options.db).mail('dead');
      options.logger?.error({ outboxUuid: message.uuid, attempts: message.attempts }, 'e-mail abandonné');
      continue;
    }
    let result;
    try {
      if (message.html === null || message.text === null) {
        // Only a sent row loses its body: one set back to pending by hand cannot be sent again.
        throw Object.assign(new Error('Message body missing (already sent?)'), { code: 'EMESSAGE', permanent: true });
      }
      result = await options.mailer.send({ id: message.uuid, to: message.recipient, subject: message.subject, html: message.html, text: message.text });
    } catch (error) {
      const dead = isPermanent(error) || message.attempts >= policy.maxAttempts;
      const lastError = describeError(error);
      await withSystem(options.db, (tx) =>
        tx
          .update(mailOutbox)
          .set(
            dead
              ? { status: 'dead', lastError }
              : { status: 'pending', lastError, nextAttemptAt: new Date(clock().getTime() + backoffMs(message.attempts, policy)) },
          )
          .where(held(message)),
      );
      observationsOf(options.db).mail(dead ? 'dead' : 'retried');
      if (dead) {
        report.dead++;
        options.logger?.error({ outboxUuid: message.uuid, attempts: message.attempts, error: lastError }, 'e-mail abandonné');
      } else {
        report.retried++;
        options.logger?.warn({ outboxUuid: message.uuid, attempts: message.attempts, error: lastError }, "échec de l'envoi d'un e-mail, nouvel essai prévu");
      }
      continue;
    }
    // Accepted by the server: from here a crash before this update means a resend after the lease,
    // with the same Message-ID (decision 018).
    const settled = await withSystem(options.db, (tx) =>
      tx
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: clock(), lastError: null, html: null, text: null })
        .where(held(message))
        .returning({ uuid: mailOutbox.uuid }),
    );
    report.sent++;
    observationsOf(options.db).mail('sent');
    const ids = { outboxUuid: message.uuid, messageId: result.messageId };
    if (settled.length === 0) {
      // The lease ran out during the send and another deliverer took the message over.
      options.logger?.warn(ids, "e-mail envoyé après la fin de son bail : un autre envoi a pu avoir lieu (même Message-ID)");
    } else if (result.file) {
      options.logger?.info({ ...ids, file: result.file }, `e-mail enregistré : ${result.file}`);
    } else {
      options.logger?.info(ids, 'e-mail envoyé');
    }
  }
  return report;
}

/** When the next message is due (the job may sleep until then), or null when none waits. */
export async function nextMailDueAt(db: Database): Promise<Date | null> {
  const [row] = await readSystem(db, (tx) =>
    tx
      .select({ at: sql<Date | null>`min(${mailOutbox.nextAttemptAt})`.mapWith(mailOutbox.nextAttemptAt) })
      .from(mailOutbox)
      .where(inArray(mailOutbox.status, ['pending', 'sending'])),
  );
  return row?.at ?? null;
}

/**
 * Forgets messages sent before `before` (their bodies are already gone: what is left is who got
 * which e-mail when). Dead messages stay for someone to look at. Returns how many were removed.
 */
export async function purgeSentMail(db: Database, before: Date): Promise<number> {
  const removed = await withSystem(db, (tx) =>
    tx
      .delete(mailOutbox)
      .where(and(eq(mailOutbox.status, 'sent'), lt(mailOutbox.sentAt, before)))
      .returning({ uuid: mailOutbox.uuid }),
  );
  return removed.length;
}
