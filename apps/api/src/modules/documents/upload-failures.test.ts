import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documents } from '../../db/schema/documents.js';
import { withTenant } from '../../db/scope.js';
import { InsufficientStorageError, NO_SPACE_MESSAGE, STORAGE_REFUSED_MESSAGE, STORAGE_UNAVAILABLE_MESSAGE, StorageFailureError } from '../../errors.js';
import { createOrganization, createUser, linkUser, subscribeToPlan } from '../../seed/factories.js';
import { multipartFiles } from '../../../test/multipart.js';
import { captureLogLines, createTestApp, type TestContext } from '../../../test/test-app.js';

// An upload the storage cannot take: the error says why (a full disk, a store out of reach) and is
// logged for the administrator, never « Joignez au moins un fichier », and nothing is recorded.
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const logs = captureLogLines();
let t: TestContext;
let org: string;
let member: string;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, {}, logs.stream);
  org = await t.seed(async (tx) => {
    const created = await createOrganization(tx, { title: 'Transports Disque' });
    await subscribeToPlan(tx, created.uuid);
    const user = await createUser(tx, { email: 'membre@disque.fr' });
    await linkUser(tx, created.uuid, user.uuid);
    return created.uuid;
  });
  member = await t.login('membre@disque.fr');
});
afterAll(() => t?.close());
afterEach(() => vi.restoreAllMocks());

const upload = () => t.as(member, { method: 'POST', url: '/api/document/upload', ...multipartFiles([{ name: 'contrat.pdf', content: PDF }]) });
const documentCount = () => withTenant(t.database.db, org, async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(documents))[0]!.n);
const linesOf = (response: { headers: Record<string, unknown> }) => logs.lines.filter((line) => line.reqId === response.headers['x-request-id']);

describe('an upload the storage cannot take', () => {
  it.each([
    ['the storage says the disk is full', () => new InsufficientStorageError()],
    ['a write meets ENOSPC', () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })],
  ])('%s: 507 in French, logged at error for the administrator, nothing recorded', async (_case, failure) => {
    vi.spyOn(t.app.storage, 'put').mockRejectedValue(failure());
    const before = await documentCount();
    const response = await upload();
    expect(response.statusCode).toBe(507);
    expect(response.json()).toMatchObject({ statusCode: 507, message: NO_SPACE_MESSAGE });
    expect(linesOf(response)).toContainEqual(expect.objectContaining({ level: 50, msg: 'disk full: 507', route: '/api/document/upload' }));
    expect(await documentCount()).toBe(before);
  });

  it('a store out of reach: 503 with Retry-After, not a 400 about the file', async () => {
    vi.spyOn(t.app.storage, 'put').mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' }));
    const before = await documentCount();
    const response = await upload();
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBeDefined();
    expect(response.json().message).toMatch(/momentanément indisponible/);
    expect(await documentCount()).toBe(before);
  });

  it('a store that refuses the write (its folder taken by a file on the disk): 500 in French, logged at error, nothing recorded', async () => {
    const blocked = path.join(t.dataDir, 'media', 'tmp', org);
    mkdirSync(path.dirname(blocked), { recursive: true });
    writeFileSync(blocked, 'pas un dossier');
    try {
      const before = await documentCount();
      const response = await upload();
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ statusCode: 500, message: STORAGE_REFUSED_MESSAGE });
      expect(linesOf(response)).toContainEqual(expect.objectContaining({ level: 50, msg: 'storage write failed: 500', transient: false, route: '/api/document/upload' }));
      expect(await documentCount()).toBe(before);
    } finally {
      rmSync(blocked);
    }
  });

  it('a store failing for a while (S3 answering 500): 503 with Retry-After, not a 400 about the file', async () => {
    vi.spyOn(t.app.storage, 'put').mockRejectedValue(new StorageFailureError(true, Object.assign(new Error('We encountered an internal error.'), { name: 'InternalError' })));
    const before = await documentCount();
    const response = await upload();
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toMatchObject({ statusCode: 503, message: STORAGE_UNAVAILABLE_MESSAGE });
    expect(linesOf(response)).toContainEqual(expect.objectContaining({ level: 50, msg: 'storage write failed: 503', transient: true }));
    expect(await documentCount()).toBe(before);
  });

  it('the same upload goes through once the storage takes it again', async () => {
    const response = await upload();
    expect(response.statusCode, response.body).toBe(201);
  });
});
