import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { expect, inject } from 'vitest';

/** The messages the product sent through the test SMTP server (support/global-setup.ts), oldest first. */
export async function receivedMail(): Promise<ParsedMail[]> {
  const dir = inject('mailDir');
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.eml') && !name.startsWith('.'))
    .sort();
  return Promise.all(files.map((name) => simpleParser(readFileSync(path.join(dir, name)))));
}

const recipients = (mail: ParsedMail) => [mail.to].flat().flatMap((to) => to?.value.map((v) => v.address?.toLowerCase()) ?? []);

/** Waits for the `after`-th next message to `to` (the first one arrived after `after` messages to it). */
export async function waitForMail(to: string, { after = 0, subject }: { after?: number; subject?: RegExp } = {}): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        const mine = (await receivedMail()).filter((mail) => recipients(mail).includes(to.toLowerCase()) && (!subject || subject.test(mail.subject ?? '')));
        found = mine[after];
        return found !== undefined;
      },
      { timeout: 30_000, message: `aucun e-mail reçu pour ${to}` },
    )
    .toBe(true);
  return found!;
}

/** How many messages `to` has received so far. */
export async function mailCount(to: string): Promise<number> {
  return (await receivedMail()).filter((mail) => recipients(mail).includes(to.toLowerCase())).length;
}
