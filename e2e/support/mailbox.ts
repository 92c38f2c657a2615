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

/**
 * A mark in the mailbox: how many messages the product has sent so far, to anyone. Take it before the
 * action that sends, then wait with `waitForMail(to, { since: mark })`: a message to the same address
 * that arrives meanwhile for another reason (an alert digest, a notice) cannot be taken for the awaited one.
 */
export async function mailMark(): Promise<number> {
  return (await receivedMail()).length;
}

/** Waits for the first message to `to` (matching `subject`) sent after the mark `since` (see mailMark). */
export async function waitForMail(to: string, { since = 0, subject }: { since?: number; subject?: RegExp } = {}): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await receivedMail())
          .slice(since)
          .find((mail) => recipients(mail).includes(to.toLowerCase()) && (!subject || subject.test(mail.subject ?? '')));
        return found !== undefined;
      },
      { timeout: 30_000, message: `aucun e-mail reçu pour ${to}${subject ? ` (objet ${subject})` : ''}` },
    )
    .toBe(true);
  return found!;
}

/** How many messages `to` has received so far. */
export async function mailCount(to: string): Promise<number> {
  return (await receivedMail()).filter((mail) => recipients(mail).includes(to.toLowerCase())).length;
}
