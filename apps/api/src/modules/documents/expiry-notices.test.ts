import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentExpiryNotices } from '../../db/schema/documents.js';
import { mailOutbox } from '../../db/schema/mail.js';
import { readSystem, withTenant } from '../../db/scope.js';
import { createOrganization, createUser, linkUser, subscribeToPlan } from '../../seed/factories.js';
import { type MultipartPart, multipartFiles } from '../../../test/multipart.js';
import { deliveringTo, startTestSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { raiseExpiryNotices } from './expiry-notices.service.js';
import { until as waitUntil } from '../../../test/until.js';

/**
 * The daily expiry job (issue 14): live documents expired or expiring within 30 days are recorded
 * once per expiry date for the alerts, and each administrator of their organization gets one
 * digest e-mail, delivered through the outbox and the job queue to a real SMTP server.
 */

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
/** The run's Paris date in these tests: a fixed day, so that the French dates can be read. */
const TODAY = '2026-11-26';

type Doc = { uuid: string; media: { name: string } | null };

let t: TestContext;
let smtp: TestSmtpServer;
let dataDir: string;
let orgA: string;
let orgB: string;
let orgC: string;
let tokens: { memberA: string; adminB: string; memberC: string };

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-expiry-'));
  t = await createTestApp({
    DATA_DIR: dataDir,
    ...deliveringTo(smtp),
  });
  ({ orgA, orgB, orgC } = await t.seed(async (tx) => {
    const a = await createOrganization(tx, { title: 'Transports Alpha' });
    await subscribeToPlan(tx, a.uuid);
    const b = await createOrganization(tx, { title: 'Bêta BTP' });
    await subscribeToPlan(tx, b.uuid);
    const c = await createOrganization(tx, { title: 'Gamma Livraisons' });
    await subscribeToPlan(tx, c.uuid);
    const memberA = await createUser(tx, { email: 'membre@alpha.fr', firstName: 'Hélène', lastName: 'Lefèvre' });
    const adminA = await createUser(tx, { email: 'chef@alpha.fr', firstName: 'Camille', lastName: 'Bernard' });
    const secondAdminA = await createUser(tx, { email: 'adjoint@alpha.fr', firstName: 'Jeanne', lastName: 'Roux' });
    const adminB = await createUser(tx, { email: 'chef@beta.fr', firstName: 'Paul', lastName: 'Martin' });
    const memberC = await createUser(tx, { email: 'membre@gamma.fr' });
    // An administrator elsewhere, member of nothing here: hears nothing of Alpha.
    await createUser(tx, { email: 'admin@ailleurs.fr' });
    await linkUser(tx, a.uuid, memberA.uuid);
    await linkUser(tx, a.uuid, adminA.uuid, 'ADMIN');
    await linkUser(tx, a.uuid, secondAdminA.uuid, 'ADMIN');
    await linkUser(tx, b.uuid, adminB.uuid, 'ADMIN');
    await linkUser(tx, c.uuid, memberC.uuid);
    return { orgA: a.uuid, orgB: b.uuid, orgC: c.uuid };
  }));
  tokens = { memberA: await t.login('membre@alpha.fr'), adminB: await t.login('chef@beta.fr'), memberC: await t.login('membre@gamma.fr') };
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Mail goes out through the job queue's worker: up to the minute's run. */
const until = (condition: () => boolean) => waitUntil(condition, 75_000);

async function upload(token: string, name: string, expiresOn: string | null, folder?: string): Promise<Doc> {
  const response = await t.as(token, { method: 'POST', url: `/api/document/upload${folder ? `?parent=${folder}` : ''}`, ...multipartFiles([{ name, content: PDF } as MultipartPart]) });
  expect(response.statusCode, response.body).toBe(201);
  const [doc] = response.json<{ data: Doc[] }>().data;
  if (expiresOn) expect((await t.as(token, { method: 'PATCH', url: `/api/document/${doc!.uuid}`, payload: { expiresOn } })).statusCode).toBe(200);
  return doc!;
}

async function folder(token: string, folderName: string): Promise<string> {
  const response = await t.as(token, { method: 'POST', url: '/api/document/folder', payload: { folderName } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ uuid: string }>().uuid;
}

const run = (today = TODAY) => raiseExpiryNotices({ db: t.database.db, mail: t.app.mail, baseUrl: 'https://flotte.exemple.fr' }, (fn) => readSystem(t.database.db, fn), today);

/** The organization's notices, read under its own row-level security. */
const noticesOf = (org: string) =>
  withTenant(t.database.db, org, (tx) =>
    tx
      .select({ document: documentExpiryNotices.documentUuid, expiresOn: documentExpiryNotices.expiresOn, organization: documentExpiryNotices.organizationUuid })
      .from(documentExpiryNotices)
      .orderBy(asc(documentExpiryNotices.expiresOn)),
  );

const digestsTo = (address: string) => smtp.received.filter((m) => m.envelopeTo.includes(address) && m.parsed.subject?.startsWith('Documents à renouveler'));
const queuedDigests = () => t.seed((tx) => tx.select({ recipient: mailOutbox.recipient, subject: mailOutbox.subject }).from(mailOutbox).where(sql`${mailOutbox.template} = 'document-expiry'`));

describe('the daily expiry notices', { timeout: 120_000 }, () => {
  it('raises each expired or expiring live document once, and e-mails each administrator one digest in French', async () => {
    const cartesGrises = await folder(tokens.memberA, 'Cartes grises');
    const expired = await upload(tokens.memberA, 'Carte verte AB-123-CD.pdf', '2026-11-20', cartesGrises);
    const soon = await upload(tokens.memberA, 'Permis Hélène & Paul <B>.pdf', '2026-12-03');
    const lastDay = await upload(tokens.memberA, 'Contrat flotte.pdf', '2026-12-26');
    await upload(tokens.memberA, 'Attestation 2027.pdf', '2026-12-27');
    await upload(tokens.memberA, 'Sans date.pdf', null);
    const trashed = await upload(tokens.memberA, 'Ancienne carte.pdf', '2026-11-01');
    expect((await t.as(tokens.memberA, { method: 'DELETE', url: `/api/document/${trashed.uuid}` })).statusCode).toBe(204);

    const report = await run();
    expect(report).toMatchObject({ notices: 3 });
    expect((await noticesOf(orgA)).map((n) => [n.document, n.expiresOn])).toEqual([
      [expired.uuid, '2026-11-20'],
      [soon.uuid, '2026-12-03'],
      [lastDay.uuid, '2026-12-26'],
    ]);

    await until(() => digestsTo('chef@alpha.fr').length === 1 && digestsTo('adjoint@alpha.fr').length === 1);
    const [mail] = digestsTo('chef@alpha.fr');
    expect(mail!.parsed.subject).toBe('Documents à renouveler : 3 documents (Transports Alpha)');
    const text = mail!.parsed.text!;
    expect(text).toContain('Bonjour Camille,');
    expect(text).toContain('3 documents de Transports Alpha ont expiré ou expirent dans les 30 prochains jours :');
    expect(text).toContain('• Carte verte AB-123-CD.pdf (dossier « Cartes grises ») : expiré le 20 novembre 2026');
    // The upload cleaned the name (« < » and « > » are not file name characters); « & » stays.
    expect(text).toContain('• Permis Hélène & Paul _B_.pdf (dossier « Mes documents ») : expire le 3 décembre 2026');
    expect(text).toContain('• Contrat flotte.pdf (dossier « Mes documents ») : expire le 26 décembre 2026');
    expect(text).not.toContain('Attestation 2027');
    expect(text).not.toContain('Sans date');
    expect(text).not.toContain('Ancienne carte');
    expect(text).toContain('https://flotte.exemple.fr/ged');
    expect(text.indexOf('Carte verte')).toBeLessThan(text.indexOf('Permis'));
    const html = mail!.parsed.html as string;
    expect(html).toContain('Permis Hélène &amp; Paul _B_.pdf');
    expect(html).toContain('href="https://flotte.exemple.fr/ged"');
    expect(digestsTo('adjoint@alpha.fr')[0]!.parsed.text).toContain('Bonjour Jeanne,');
    // Members who are not administrators, and administrators of other organizations, hear nothing.
    expect(digestsTo('membre@alpha.fr')).toEqual([]);
    expect(digestsTo('admin@ailleurs.fr')).toEqual([]);

    // Run again the same day (a retry, a second process): nothing raised, nothing sent twice.
    expect(await run()).toMatchObject({ notices: 0, emails: 0 });
    expect((await noticesOf(orgA)).length).toBe(3);
    expect((await queuedDigests()).filter((m) => m.recipient.endsWith('@alpha.fr'))).toHaveLength(2);

    // The next day, the documents raised are not raised again; the one now 30 days away is.
    expect(await run('2026-11-27')).toMatchObject({ notices: 1 });
    expect((await noticesOf(orgA)).map((n) => n.expiresOn)).toEqual(['2026-11-20', '2026-12-03', '2026-12-26', '2026-12-27']);
  });

  it('raises a document again when its expiry date changes, and the new date only', async () => {
    const doc = await upload(tokens.memberA, 'Carte verte renouvelée.pdf', '2026-12-10');
    expect(await run()).toMatchObject({ notices: 1 });
    expect((await run()).notices).toBe(0);
    expect((await t.as(tokens.memberA, { method: 'PATCH', url: `/api/document/${doc.uuid}`, payload: { expiresOn: '2026-12-20' } })).statusCode).toBe(200);
    expect(await run()).toMatchObject({ notices: 1 });
    const mine = (await noticesOf(orgA)).filter((n) => n.document === doc.uuid);
    expect(mine.map((n) => n.expiresOn)).toEqual(['2026-12-10', '2026-12-20']);
    await until(() => digestsTo('chef@alpha.fr').filter((m) => m.parsed.text?.includes('Carte verte renouvelée')).length === 2);
    const latest = digestsTo('chef@alpha.fr').filter((m) => m.parsed.text?.includes('Carte verte renouvelée'))[1]!;
    expect(latest.parsed.subject).toBe('Documents à renouveler : 1 document (Transports Alpha)');
    expect(latest.parsed.text).toContain('Un document de Transports Alpha a expiré ou expire dans les 30 prochains jours :');
    expect(latest.parsed.text).toContain('expire le 20 décembre 2026');
    // A date moved beyond the window raises nothing.
    expect((await t.as(tokens.memberA, { method: 'PATCH', url: `/api/document/${doc.uuid}`, payload: { expiresOn: '2027-06-01' } })).statusCode).toBe(200);
    expect((await run()).notices).toBe(0);
  });

  it('keeps each organization to its own documents: its notices, its administrators, its e-mail', async () => {
    const foreign = await upload(tokens.adminB, 'Carte grise Bêta.pdf', '2026-11-30');
    expect(await run()).toMatchObject({ organizations: 1, notices: 1, emails: 1 });
    expect((await noticesOf(orgB)).map((n) => [n.document, n.organization])).toEqual([[foreign.uuid, orgB]]);
    // Under Alpha's row-level security, Bêta's notice does not exist.
    expect((await noticesOf(orgA)).some((n) => n.document === foreign.uuid)).toBe(false);
    await until(() => digestsTo('chef@beta.fr').length === 1);
    const [mail] = digestsTo('chef@beta.fr');
    expect(mail!.parsed.subject).toBe('Documents à renouveler : 1 document (Bêta BTP)');
    expect(mail!.parsed.text).toContain('Carte grise Bêta.pdf');
    expect(mail!.parsed.text).not.toContain('Carte verte');
    expect(digestsTo('chef@alpha.fr').some((m) => m.parsed.text?.includes('Bêta'))).toBe(false);
  });

  it('records the notices of an organization without an administrator, and e-mails nobody', async () => {
    const doc = await upload(tokens.memberC, 'Assurance Gamma.pdf', '2026-12-01');
    const before = (await queuedDigests()).length;
    expect(await run()).toMatchObject({ organizations: 1, notices: 1, emails: 0 });
    expect((await noticesOf(orgC)).map((n) => n.document)).toEqual([doc.uuid]);
    expect((await queuedDigests()).length).toBe(before);
    expect(digestsTo('membre@gamma.fr')).toEqual([]);
  });
});
