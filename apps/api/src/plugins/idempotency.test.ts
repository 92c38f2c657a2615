import { PassThrough } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../db/schema/idempotency.js';
import { drivers } from '../db/schema/drivers.js';
import { runWithCommitMark, withTenant } from '../db/scope.js';
import { ANSWER_LOST_MESSAGE, claimKey, IN_FLIGHT_MESSAGE, KEY_REUSED_MESSAGE, markEffect, sweepIdempotencyKeys } from '../lib/idempotency.js';
import { createOrganization, createUser, createVehicules, linkUser, subscribeToPlan } from '../seed/factories.js';
import { multipartFile, multipartFiles } from '../../test/multipart.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/**
 * Idempotency-Key on the routes that create or apply (decision 050): imports, uploads, payments.
 * Each retry with the same key creates nothing twice and gets the first answer; another body is
 * 422; a retry while the first runs is 409; another user or organization has keys of its own.
 */

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const CSV = (names: string[]) => Buffer.from(`Nom;Prénom;Téléphone\n${names.map((name, i) => `${name};Test;06 12 34 56 ${String(10 + i)}`).join('\n')}\n`);
const KEY_MESSAGE = 'La clé d’idempotence (en-tête Idempotency-Key) doit compter de 1 à 255 caractères imprimables (ASCII, sans caractère de contrôle).';

let t: TestContext;
let orgX: string;
let orgY: string;
let vehicleX: string;
let folderX: string;
const tokens: Record<'adminX' | 'memberX' | 'adminY', string> = { adminX: '', memberX: '', adminY: '' };

beforeAll(async () => {
  t = await createTestApp();
  ({ orgX, orgY, vehicleX } = await t.seed(async (tx) => {
    const x = await createOrganization(tx, { title: 'Xavier Transports' });
    const y = await createOrganization(tx, { title: 'Yvette Livraisons' });
    await subscribeToPlan(tx, x.uuid);
    await subscribeToPlan(tx, y.uuid);
    const adminX = await createUser(tx, { email: 'admin@x.fr' });
    const memberX = await createUser(tx, { email: 'membre@x.fr' });
    const adminY = await createUser(tx, { email: 'admin@y.fr' });
    await linkUser(tx, x.uuid, adminX.uuid, 'ADMIN');
    await linkUser(tx, x.uuid, memberX.uuid);
    await linkUser(tx, y.uuid, adminY.uuid, 'ADMIN');
    const [vehicle] = await createVehicules(tx, x.uuid, [{ immatriculation: 'AB123CD' }]);
    return { orgX: x.uuid, orgY: y.uuid, vehicleX: vehicle!.uuid };
  }));
  tokens.adminX = await t.login('admin@x.fr');
  tokens.memberX = await t.login('membre@x.fr');
  tokens.adminY = await t.login('admin@y.fr');
  folderX = await folder();
});
afterAll(() => t.close());

const count = (table: string, org: string) =>
  t.seed(async (tx) => ((await tx.execute(sql.raw(`select count(*)::int as n from ${table} where organization_uuid = '${org}'`))) as unknown as { rows: { n: number }[] }).rows[0]!.n);

async function objectsOf(org: string): Promise<number> {
  let n = 0;
  for (const prefix of [`${org}/`, `tmp/${org}/`]) for await (const _ of t.app.storage.list(prefix)) n++;
  return n;
}

const withKey = (key: string | undefined, headers: Record<string, string> = {}) => (key === undefined ? headers : { ...headers, 'idempotency-key': key });
const preview = (token: string, key: string | undefined, content: Buffer, entity = 'driver') => {
  const body = multipartFile('conducteurs.csv', content);
  return t.as(token, { method: 'POST', url: `/api/import/${entity}/preview`, payload: body.payload, headers: withKey(key, body.headers) });
};
const upload = (token: string, key: string | undefined, content: Buffer, url = '/api/document/upload', name = 'contrat.pdf') => {
  const body = multipartFiles([{ name, content }]);
  return t.as(token, { method: 'POST', url, payload: body.payload, headers: withKey(key, body.headers) });
};
const checkout = (token: string, key: string | undefined, payload: object = { planId: 'pro', interval: 'month' }) =>
  t.as(token, { method: 'POST', url: '/api/stripe/checkout', payload, headers: withKey(key) });

const folder = async () => {
  const response = await t.as(tokens.adminX, { method: 'POST', url: '/api/document/folder', payload: { folderName: `Dossier ${crypto.randomUUID().slice(0, 6)}` } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ uuid: string }>().uuid;
};

/** Every effect a test looks at, for one organization. */
const effects = async (org: string) => ({
  imports: await count('imports', org),
  documents: await count('documents', org),
  checkouts: await count('billing_checkouts', org),
  storedFiles: await count('stored_files', org),
  objects: await objectsOf(org),
  drivers: await count('drivers', org),
});

describe('a retry with the same key creates nothing twice and gets the first answer', () => {
  it('import preview (multipart, a new boundary each time): one import, one stored file, the same body, Idempotent-Replayed', async () => {
    const before = await effects(orgX);
    const first = await preview(tokens.adminX, 'import-1', CSV(['Rouxel']));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await preview(tokens.adminX, 'import-1', CSV(['Rouxel']));
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await effects(orgX)).toEqual({ ...before, imports: before.imports + 1, storedFiles: before.storedFiles + 1, objects: before.objects + 1 });
  });

  it('import commit: the rows are written once, the replay says what the first did', async () => {
    const previewed = (await preview(tokens.adminX, undefined, CSV(['Aubert', 'Bonnet']))).json<{ importId: string; suggestedMapping: object }>();
    const before = await count('drivers', orgX);
    const commit = () =>
      t.as(tokens.adminX, { method: 'POST', url: `/api/import/${previewed.importId}/commit`, payload: { mapping: previewed.suggestedMapping }, headers: withKey('commit-1') });
    const first = await commit();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'committed', created: 2 });
    const again = await commit();
    expect([again.statusCode, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', first.body]);
    expect(await count('drivers', orgX)).toBe(before + 2);
    // The key was marked in the commit's own transaction, then its answer stored.
    const [row] = await t.seed((tx) => tx.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.organizationUuid, orgX), eq(idempotencyKeys.key, 'commit-1'))));
    expect(row).toMatchObject({ state: 'done', statusCode: 200, route: 'POST /api/import/:importId/commit', claim: null });
  });

  it('document upload and an attachment of a vehicle: one document and one file each', async () => {
    const before = await effects(orgX);
    const first = await upload(tokens.adminX, 'upload-1', PDF);
    expect(first.statusCode, first.body).toBe(201);
    const again = await upload(tokens.adminX, 'upload-1', PDF);
    expect([again.statusCode, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', first.body]);
    const url = `/api/vehicule/${vehicleX}/documents`;
    const attached = await upload(tokens.adminX, 'attach-1', PDF, url);
    expect(attached.statusCode, attached.body).toBe(201);
    expect((await upload(tokens.adminX, 'attach-1', PDF, url)).body).toBe(attached.body);
    // Two files, and the vehicle's automatic folders (« Véhicules », « AB-123-CD ») created once.
    expect(await effects(orgX)).toEqual({ ...before, documents: before.documents + 4, storedFiles: before.storedFiles + 2, objects: before.objects + 2 });
  });

  it('payment: one checkout at the provider and in the database, the same session replayed', async () => {
    const before = await effects(orgX);
    const first = await checkout(tokens.adminX, 'pay-1');
    expect(first.statusCode, first.body).toBe(201);
    const again = await checkout(tokens.adminX, 'pay-1');
    expect([again.statusCode, again.headers['idempotent-replayed'], again.json().sessionId]).toEqual([201, 'true', first.json().sessionId]);
    expect(await effects(orgX)).toEqual({ ...before, checkouts: before.checkouts + 1 });
    // The embedded payment of that session, retried: paid once, the same answer.
    const pay = () => t.as(tokens.adminX, { method: 'POST', url: `/api/stripe/checkout/${first.json().sessionId}/pay`, headers: withKey('pay-1-pay') });
    const paid = await pay();
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await pay()).body).toBe(paid.body);
  });

  it('without the header, nothing changes: two requests, two imports', async () => {
    const before = await count('imports', orgX);
    expect((await preview(tokens.adminX, undefined, CSV(['Sans']))).statusCode).toBe(200);
    expect((await preview(tokens.adminX, undefined, CSV(['Sans']))).statusCode).toBe(200);
    expect(await count('imports', orgX)).toBe(before + 2);
  });
});

describe('the same key with another request: 422, nothing written', () => {
  it.each([
    ['import preview', () => preview(tokens.adminX, 'other-1', CSV(['Premier'])), () => preview(tokens.adminX, 'other-1', CSV(['Second']))],
    ['upload', () => upload(tokens.adminX, 'other-2', PDF), () => upload(tokens.adminX, 'other-2', Buffer.concat([PDF, Buffer.from('autre')]))],
    ['upload into another folder (its URL)', () => upload(tokens.adminX, 'other-3', PDF), () => upload(tokens.adminX, 'other-3', PDF, `/api/document/upload?parent=${folderX}`)],
    ['checkout', () => checkout(tokens.adminX, 'other-4'), () => checkout(tokens.adminX, 'other-4', { planId: 'pro', interval: 'year' })],
  ])('%s', async (_name, first, second) => {
    expect((await first()).statusCode).toBeLessThan(300);
    const before = await effects(orgX);
    const refused = await second();
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toEqual({ statusCode: 422, error: 'Unprocessable Entity', message: KEY_REUSED_MESSAGE, details: [{ path: 'idempotency-key', message: KEY_REUSED_MESSAGE }] });
    expect(await effects(orgX)).toEqual(before);
  });
});

describe('a malformed key: 400 in French, nothing written', () => {
  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not printable ASCII', 'clé-é'],
  ])('%s', async (_name, key) => {
    const before = await effects(orgX);
    for (const response of [await preview(tokens.adminX, key, CSV(['Mal'])), await upload(tokens.adminX, key, PDF), await checkout(tokens.adminX, key)]) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toContain(KEY_MESSAGE);
    }
    expect(await effects(orgX)).toEqual(before);
  });

  it('the longest key (255 printable characters) is taken', async () => {
    expect((await checkout(tokens.adminX, `${'~'.repeat(254)}!`)).statusCode).toBe(201);
  });
});

describe('keys are the caller’s own', () => {
  it('another member of the organization, and an administrator of another, with the same key get their own fresh result', async () => {
    const mine = await preview(tokens.adminX, 'shared-key', CSV(['Moi']));
    const member = await preview(tokens.memberX, 'shared-key', CSV(['Moi']));
    const foreign = await preview(tokens.adminY, 'shared-key', CSV(['Moi']));
    for (const response of [member, foreign]) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
    }
    const ids = [mine, member, foreign].map((response) => response.json<{ importId: string }>().importId);
    expect(new Set(ids).size).toBe(3);
    // Another organization's payment with the same key: its own checkout, not the first one's session.
    const x = await checkout(tokens.adminX, 'shared-pay');
    const y = await checkout(tokens.adminY, 'shared-pay');
    expect(y.statusCode).toBe(201);
    expect(y.json().sessionId).not.toBe(x.json().sessionId);
    expect(await count('billing_checkouts', orgY)).toBe(1);
  });

  it('row-level security: an organization sees none of another’s keys', async () => {
    const seen = await withTenant(t.database.db, orgY, (tx) => tx.select({ org: idempotencyKeys.organizationUuid }).from(idempotencyKeys));
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((row) => row.org))).toEqual(new Set([orgY]));
  });
});

describe('a retry while the first request runs', () => {
  it('is refused (409, Retry-After, French) and creates nothing; once the first has answered, it is replayed', async () => {
    const body = multipartFiles([{ name: 'lent.pdf', content: PDF }]);
    const stream = new PassThrough();
    const half = Math.floor(body.payload.length / 2);
    stream.write(body.payload.subarray(0, half));
    const first = t.as(tokens.adminX, { method: 'POST', url: '/api/document/upload', payload: stream, headers: withKey('slow-1', body.headers) });
    // The first holds the key once its handler reads the body.
    for (let i = 0; i < 200; i++) {
      const [row] = await t.seed((tx) => tx.select({ state: idempotencyKeys.state }).from(idempotencyKeys).where(eq(idempotencyKeys.key, 'slow-1')));
      if (row) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const before = await count('documents', orgX);
    const second = await upload(tokens.adminX, 'slow-1', PDF);
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json().message).toBe(IN_FLIGHT_MESSAGE);
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(30);
    stream.end(body.payload.subarray(half));
    const done = await first;
    expect(done.statusCode, done.body).toBe(201);
    expect(await count('documents', orgX)).toBe(before + 1);
    const replay = await upload(tokens.adminX, 'slow-1', PDF, undefined, 'lent.pdf');
    expect([replay.statusCode, replay.body]).toEqual([201, done.body]);
  });

  it('a refused first request gives the key back: the retry runs', async () => {
    const refused = await checkout(tokens.adminX, 'after-refusal', { planId: 'platine', interval: 'month' });
    expect(refused.statusCode).toBe(400);
    expect((await checkout(tokens.adminX, 'after-refusal', { planId: 'pro', interval: 'month' })).statusCode).toBe(201);
  });
});

describe('a process that died', () => {
  const scope = (key: string) => ({ organizationUuid: orgX, userUuid: '', route: 'POST /api/stripe/checkout', key });
  const userOf = async (email: string) => (await t.seed((tx) => tx.execute(sql`select uuid from users where email = ${email}`)) as unknown as { rows: { uuid: string }[] }).rows[0]!.uuid;

  it('before its change committed (a pending key whose lease ran out): the retry takes the key over and runs once', async () => {
    const adminX = await userOf('admin@x.fr');
    await withTenant(t.database.db, orgX, (tx) =>
      tx.insert(idempotencyKeys).values({ ...scope('dead-1'), userUuid: adminX, state: 'pending', claim: crypto.randomUUID(), lockedUntil: sql`now() - interval '1 second'`, expiresAt: sql`now() + interval '1 day'` }),
    );
    const before = await count('billing_checkouts', orgX);
    expect((await checkout(tokens.adminX, 'dead-1')).statusCode).toBe(201);
    expect(await count('billing_checkouts', orgX)).toBe(before + 1);
  });

  it('after its change committed, before its answer was stored: the retry is told, nothing is done again', async () => {
    const adminX = await userOf('admin@x.fr');
    await withTenant(t.database.db, orgX, (tx) =>
      tx.insert(idempotencyKeys).values({ ...scope('dead-2'), userUuid: adminX, state: 'effect', claim: crypto.randomUUID(), lockedUntil: sql`now() - interval '1 second'`, expiresAt: sql`now() + interval '1 day'` }),
    );
    const before = await count('billing_checkouts', orgX);
    const retry = await checkout(tokens.adminX, 'dead-2');
    expect([retry.statusCode, retry.json().message]).toEqual([409, ANSWER_LOST_MESSAGE]);
    expect(await count('billing_checkouts', orgX)).toBe(before);
  });

  it('a change whose key another request took over is rolled back (the mark refuses it)', async () => {
    const adminX = await userOf('admin@x.fr');
    const key = { ...scope('taken-over'), userUuid: adminX };
    const claim = await claimKey(t.database.db, key);
    expect(claim.kind).toBe('run');
    await withTenant(t.database.db, orgX, (tx) => tx.update(idempotencyKeys).set({ claim: crypto.randomUUID() }).where(eq(idempotencyKeys.key, 'taken-over')));
    const before = await count('drivers', orgX);
    const mark = (tx: Parameters<typeof markEffect>[0]) => markEffect(tx, key, (claim as { claim: string }).claim);
    await expect(runWithCommitMark(orgX, mark, () => withTenant(t.database.db, orgX, (tx) => tx.insert(drivers).values({ organizationUuid: orgX, firstName: 'Jamais', lastName: 'Écrit' })))).rejects.toThrow(IN_FLIGHT_MESSAGE);
    expect(await count('drivers', orgX)).toBe(before);
  });
});

describe('after 24 h', () => {
  it('the sweep removes a key; the same key then runs afresh', async () => {
    const first = await checkout(tokens.adminX, 'old-key');
    expect((await checkout(tokens.adminX, 'old-key')).headers['idempotent-replayed']).toBe('true');
    expect(await sweepIdempotencyKeys(t.database.db, new Date(Date.now() + 23 * 3_600_000))).toBe(0);
    expect(await sweepIdempotencyKeys(t.database.db, new Date(Date.now() + 25 * 3_600_000))).toBeGreaterThan(0);
    const after = await checkout(tokens.adminX, 'old-key');
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json().sessionId).not.toBe(first.json().sessionId);
  });
});
