import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { envelopeFrom: string; envelopeTo: string[]; user: string | undefined; raw: string; parsed: ParsedMail };

export type TestSmtpServer = {
  port: number;
  received: ReceivedMail[];
  /** Recipients refused at RCPT TO with this reply code (550: permanent, 450: transient). */
  refuseRecipient: Map<string, number>;
  /** Reply codes given to the next DATA commands, one per message, before accepting again. */
  failNextData: number[];
  close(): Promise<void>;
};

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * The app's configuration that delivers its e-mails to this server at once: SMTP on its port,
 * links under https://flotte.exemple.fr, the job worker polling every half second.
 */
export function deliveringTo(smtp: Pick<TestSmtpServer, 'port'>): Record<string, string> {
  return {
    PUBLIC_URL: 'https://flotte.exemple.fr',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'FlotteAssur <no-reply@flotte.exemple.fr>',
    JOBS_WORKER: 'true',
    JOBS_POLL_INTERVAL_SECONDS: '0.5',
  };
}

/**
 * A real SMTP server in the test process (smtp-server, the server side of nodemailer): what the
 * mailer delivers arrives here over TCP and is parsed as a mail client would.
 */
export async function startTestSmtpServer(options: { auth?: { user: string; password: string } } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const refuseRecipient = new Map<string, number>();
  const failNextData: number[] = [];
  const server = new SMTPServer({
    // Plain TCP on loopback: the test has no certificate to offer.
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.password) return callback(null, { user: auth.username });
      return callback(smtpError('Identifiants refusés', 535));
    },
    onMailFrom(_address, session, callback) {
      if (options.auth && !session.user) return callback(smtpError('Authentification requise', 530));
      return callback();
    },
    onRcptTo(address, _session, callback) {
      const code = refuseRecipient.get(address.address);
      return code ? callback(smtpError(`Destinataire refusé : ${address.address}`, code)) : callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = failNextData.shift();
        if (code) return callback(smtpError('Essayez plus tard', code));
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              user: typeof session.user === 'string' ? session.user : undefined,
              raw,
              parsed,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    refuseRecipient,
    failNextData,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
