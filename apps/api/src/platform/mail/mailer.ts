import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';

/** A message as the outbox hands it over: its id names it for good (Message-ID, .eml file). */
export type OutgoingMail = Readonly<{ id: string; to: string; subject: string; html: string; text: string }>;

export type MailSendResult = Readonly<{ messageId: string; /** The .eml written, with no SMTP server. */ file?: string }>;

export interface Mailer {
  /** smtp: SMTP_HOST is set; file: each message becomes DATA_DIR/mail/<id>.eml. */
  readonly kind: 'smtp' | 'file';
  /** Resolves once the server accepted the message (or the file is written); throws otherwise. */
  send(mail: OutgoingMail): Promise<MailSendResult>;
  close(): void;
}

export type MailerOptions = Readonly<{ smtp: Config['smtp']; dataDir: string }>;

/** no-reply@example.org from « Name <no-reply@example.org> » or a bare address. */
function senderDomain(from: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim().toLowerCase();
  return /^[a-z0-9.-]+$/.test(domain) && domain.includes('.') ? domain : 'flotteassur.local';
}

/**
 * The same outbox row always gets the same Message-ID, whichever attempt or process sends it:
 * mail clients and many servers drop a second copy of a Message-ID they already have, which
 * covers a resend after a crash between the server's acceptance and the row marked sent.
 */
export function messageIdFor(id: string, from: string): string {
  return `<${id}@${senderDomain(from)}>`;
}

function ensureUuidLike(id: string): string {
  // The id becomes a file name and a Message-ID: never anything but a UUID.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new Error('An outgoing e-mail id must be a UUID');
  return id.toLowerCase();
}

export function createMailer(options: MailerOptions): Mailer {
  const { smtp } = options;
  const common = (mail: OutgoingMail, messageId: string) => ({
    from: smtp.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId,
    headers: { 'Auto-Submitted': 'auto-generated' },
  });

  if (smtp.host) {
    const transport: Transporter = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
      // Bounded waits: a silent server must not hold a delivery (and its lease) for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      kind: 'smtp',
      async send(mail) {
        const messageId = messageIdFor(ensureUuidLike(mail.id), smtp.from);
        await transport.sendMail(common(mail, messageId));
        return { messageId };
      },
      close: () => transport.close(),
    };
  }

  const folder = path.join(options.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(mail) {
      const id = ensureUuidLike(mail.id);
      const messageId = messageIdFor(id, smtp.from);
      const info = await transport.sendMail(common(mail, messageId));
      await mkdir(folder, { recursive: true });
      // Named by the message: a second delivery of the same row rewrites the same file.
      const file = path.join(folder, `${id}.eml`);
      const partial = `${file}.${process.pid}.tmp`;
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, file);
      return { messageId, file };
    },
    close: () => transport.close(),
  };
}
