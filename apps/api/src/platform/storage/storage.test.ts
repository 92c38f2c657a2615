import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { InsufficientStorageError, NotFoundError, PayloadTooLargeError, RangeNotSatisfiableError, StorageFailureError } from '../../errors.js';
import { createLocalTestStorage, createS3TestStorage, TEST_STORAGES, type TestStorage } from '../../../test/storage.js';
import { S3Storage } from './s3-storage.js';
import { InvalidObjectKeyError, type ObjectStorage } from './storage.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A lazy source of count chunks of chunkSize bytes: it counts how many were pulled from it. */
function countingSource(count: number, chunkSize: number) {
  const state = { pulled: 0 };
  const hash = createHash('sha256');
  async function* generate() {
    for (let i = 0; i < count; i++) {
      state.pulled++;
      const chunk = Buffer.alloc(chunkSize, i % 251);
      hash.update(chunk);
      yield chunk;
    }
  }
  return { stream: Readable.from(generate()), state, digest: () => hash.digest('hex') };
}

const text = (value: string) => Readable.from([Buffer.from(value)]);
const sha256 = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');
const ORG = '0d6f3c2a-4b1e-4c55-9a77-1f2e3d4c5b6a';
let sequence = 0;
/** A fresh key per test: no test depends on another's objects. */
const newKey = (prefix = ORG) => `${prefix}/object-${++sequence}`;

describe.each(TEST_STORAGES)('storage contract: %s', (_name, create) => {
  let t: TestStorage;
  let storage: ObjectStorage;
  beforeAll(async () => {
    t = await create();
    storage = t.storage;
  });
  afterAll(() => t.close());

  it('stores a stream and gives it back whole, with its size', async () => {
    const key = newKey();
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.put(key, text('Constat amiable signé'), { maxBytes: 1000 })).toEqual({ size: Buffer.byteLength('Constat amiable signé') });
    expect(await storage.exists(key)).toBe(true);
    const object = await storage.get(key);
    const size = Buffer.byteLength('Constat amiable signé');
    expect({ size: object.size, start: object.start, end: object.end }).toEqual({ size, start: 0, end: size - 1 });
    expect((await readAll(object.body)).toString()).toBe('Constat amiable signé');
  });

  it('streams a file of several S3 parts (12 MiB) without changing a byte', async () => {
    const key = newKey();
    const source = countingSource(12 * 16, 64 * 1024);
    const { size } = await storage.put(key, source.stream, { maxBytes: 20 * 1024 * 1024 });
    expect(size).toBe(12 * 1024 * 1024);
    const object = await storage.get(key);
    expect(object.size).toBe(12 * 1024 * 1024);
    expect(sha256(await readAll(object.body))).toBe(source.digest());
  });

  it('stores an empty file', async () => {
    const key = newKey();
    expect(await storage.put(key, Readable.from([]), { maxBytes: 10 })).toEqual({ size: 0 });
    const object = await storage.get(key);
    expect(object.size).toBe(0);
    expect((await readAll(object.body)).length).toBe(0);
  });

  it('replaces an object written again under the same key', async () => {
    const key = newKey();
    await storage.put(key, text('première version'), { maxBytes: 100 });
    await storage.put(key, text('seconde'), { maxBytes: 100 });
    expect((await readAll((await storage.get(key)).body)).toString()).toBe('seconde');
  });

  describe('size limit', () => {
    it('accepts a file of exactly the limit', async () => {
      const key = newKey();
      expect(await storage.put(key, Readable.from([Buffer.alloc(1024, 1)]), { maxBytes: 1024 })).toEqual({ size: 1024 });
    });

    it('stops reading past the limit, keeps nothing and answers 413 in French', async () => {
      const key = newKey();
      const source = countingSource(1000, 64 * 1024);
      const error = await storage.put(key, source.stream, { maxBytes: 100 * 1024 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect(error).toMatchObject({ statusCode: 413, message: 'Le fichier dépasse la taille maximale autorisée (100 Ko).' });
      // Two chunks reach the limit; what more was pulled is only the streams' read-ahead.
      expect(source.state.pulled).toBeLessThan(40);
      expect(source.stream.destroyed).toBe(true);
      expect(await storage.exists(key)).toBe(false);
    });

    it('refuses a file past the limit after whole S3 parts were sent (multipart aborted), with the feature\u2019s message', async () => {
      const key = newKey();
      // 1 000 chunks of 64 KiB offered, 176 fit in 11 MiB.
      const source = countingSource(1000, 64 * 1024);
      const error = await storage
        .put(key, source.stream, { maxBytes: 11 * 1024 * 1024, tooLargeMessage: 'La photo dépasse 11 Mo.' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect((error as Error).message).toBe('La photo dépasse 11 Mo.');
      expect(source.state.pulled).toBeLessThan(200);
      expect(source.stream.destroyed).toBe(true);
      expect(await storage.exists(key)).toBe(false);
    });

    it('keeps nothing of a file refused at its first chunk, even when its file is still being opened', async () => {
      // The limit may fail before the write stream has opened its file: the file must not come back
      // after it was removed. A rare race (seen once in a whole suite): 200 puts make it likelier.
      const prefix = `race-${Date.now()}`;
      const keys = Array.from({ length: 200 }, (_, i) => `${prefix}/${i}`);
      for (const key of keys) {
        const error = await storage.put(key, Readable.from([Buffer.alloc(4096)]), { maxBytes: 1024 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PayloadTooLargeError);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const left: string[] = [];
      for await (const object of storage.list(`${prefix}/`)) left.push(object.key);
      expect(left).toEqual([]);
    });

    it('leaves nothing when the source fails midway', async () => {
      const key = newKey();
      async function* failing() {
        yield Buffer.alloc(1024, 3);
        throw new Error('connexion coupée');
      }
      await expect(storage.put(key, Readable.from(failing()), { maxBytes: 10_000 })).rejects.toThrow('connexion coupée');
      expect(await storage.exists(key)).toBe(false);
    });
  });

  describe('ranges', () => {
    const content = 'Sinistre n° 2026-0042';
    const size = Buffer.byteLength(content);
    let key: string;
    beforeAll(async () => {
      key = newKey();
      await storage.put(key, text(content), { maxBytes: 1000 });
    });
    const read = async (range: { start: number; end?: number }) => {
      const object = await storage.get(key, range);
      return { start: object.start, end: object.end, size: object.size, body: (await readAll(object.body)).toString('latin1') };
    };
    const bytes = (start: number, end: number) => Buffer.from(content).subarray(start, end + 1).toString('latin1');

    it('gives the bytes from start to end, both included, and the whole size', async () => {
      expect(await read({ start: 0, end: 7 })).toEqual({ start: 0, end: 7, size, body: 'Sinistre' });
      expect(await read({ start: 4, end: 4 })).toEqual({ start: 4, end: 4, size, body: 's' });
    });

    it('reads to the end without an end, and cuts an end beyond the object', async () => {
      expect(await read({ start: 12 })).toEqual({ start: 12, end: size - 1, size, body: bytes(12, size - 1) });
      expect(await read({ start: 12, end: 10_000 })).toEqual({ start: 12, end: size - 1, size, body: bytes(12, size - 1) });
    });

    it('refuses a start beyond the object, and a range that is not one, with 416', async () => {
      for (const range of [{ start: size }, { start: size + 100, end: size + 200 }, { start: 5, end: 4 }, { start: -1, end: 3 }, { start: 1.5 }]) {
        await expect(storage.get(key, range), JSON.stringify(range)).rejects.toBeInstanceOf(RangeNotSatisfiableError);
      }
    });
  });

  it('answers NotFound (404) for a missing key, whole or ranged', async () => {
    await expect(storage.get(newKey())).rejects.toMatchObject({ statusCode: 404, message: 'Fichier introuvable' });
    await expect(storage.get(newKey(), { start: 0, end: 3 })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('deletes an object; deleting a missing key is not an error', async () => {
    const key = newKey();
    await storage.put(key, text('à effacer'), { maxBytes: 100 });
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.get(key)).rejects.toBeInstanceOf(NotFoundError);
    await storage.delete(key);
    await storage.delete(newKey());
  });

  it('moves an object to another key; a missing source is NotFound', async () => {
    const from = newKey(`tmp/${ORG}`);
    const to = newKey();
    await storage.put(from, text('devis'), { maxBytes: 100 });
    await storage.move(from, to);
    expect(await storage.exists(from)).toBe(false);
    expect((await readAll((await storage.get(to)).body)).toString()).toBe('devis');
    await expect(storage.move(from, newKey())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists the objects under a prefix with their date, and only those', async () => {
    const prefix = `list-${++sequence}`;
    const before = Date.now() - 2_000;
    await storage.put(`${prefix}/a/1`, text('un'), { maxBytes: 10 });
    await storage.put(`${prefix}/b/2`, text('deux'), { maxBytes: 10 });
    await storage.put(`${prefix}-other/3`, text('trois'), { maxBytes: 10 });
    const listed = [];
    for await (const object of storage.list(`${prefix}/`)) listed.push(object);
    expect(listed.map((o) => o.key).sort()).toEqual([`${prefix}/a/1`, `${prefix}/b/2`]);
    for (const object of listed) {
      expect(object.lastModified).toBeInstanceOf(Date);
      expect(object.lastModified.getTime()).toBeGreaterThan(before);
      expect(object.lastModified.getTime()).toBeLessThan(Date.now() + 2_000);
    }
    const empty = [];
    for await (const object of storage.list('nothing-here/')) empty.push(object);
    expect(empty).toEqual([]);
  });

  it('has no object at a key that only starts other keys (a folder on disk)', async () => {
    const prefix = `folder-${++sequence}`;
    await storage.put(`${prefix}/a/1`, text('un'), { maxBytes: 10 });
    expect(await storage.exists(`${prefix}/a`)).toBe(false);
    await expect(storage.get(`${prefix}/a`)).rejects.toBeInstanceOf(NotFoundError);
    await storage.delete(`${prefix}/a`);
    expect(await storage.exists(`${prefix}/a/1`)).toBe(true);
  });

  describe('keys', () => {
    const BAD_KEYS = ['', '..', '../escape', `${ORG}/../../escape`, '/etc/passwd', 'a//b', 'a/./b', './a', '.hidden', 'a\\b', '..\\escape', 'a/b/', 'dossier/facture été.pdf', '%2e%2e/x', 'a\u0000b', 'C:/x', 'x'.repeat(513)];

    it('refuses every key that is not plain segments, on every operation, before touching anything', async () => {
      for (const key of BAD_KEYS) {
        await expect(storage.put(key, text('x'), { maxBytes: 10 }), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.exists(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.delete(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.move(key, newKey()), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.move(newKey(), key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
      }
      for (const prefix of ['../', '/', 'tmp', 'a//', '']) {
        await expect(
          (async () => {
            for await (const _ of storage.list(prefix)) break;
          })(),
          prefix,
        ).rejects.toBeInstanceOf(InvalidObjectKeyError);
      }
    });

    it('accepts the generated shapes: organization/uuid, tmp/organization/uuid', async () => {
      for (const key of [`${ORG}/6c1e0a52-8d3f-4e1b-b0a4-2f9c7d5e3a18`, `tmp/${ORG}/6c1e0a52-8d3f-4e1b-b0a4-2f9c7d5e3a18`, 'exports/rapport_2026-11.v2.pdf']) {
        await storage.put(key, text('ok'), { maxBytes: 10 });
        expect(await storage.exists(key)).toBe(true);
      }
    });
  });
});

describe('local disk driver', () => {
  it('keeps every object inside its directory, and refused keys write nothing anywhere', async () => {
    const t = await createLocalTestStorage();
    try {
      await t.storage.put(`${ORG}/inside`, text('ok'), { maxBytes: 10 });
      await expect(t.storage.put('../outside', text('x'), { maxBytes: 10 })).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(t.storage.put('media/../../outside', text('x'), { maxBytes: 10 })).rejects.toBeInstanceOf(InvalidObjectKeyError);
      // The temporary parent holds only media/, which holds only the organization's folder.
      expect(readdirSync(t.directory)).toEqual(['media']);
      expect(readdirSync(`${t.directory}/media`)).toEqual([ORG]);
      expect(readdirSync(`${t.directory}/media/${ORG}`)).toEqual(['inside']);
    } finally {
      await t.close();
    }
  });

  it('answers a full disk with 507 and a French message, and leaves no file behind', async () => {
    const t = await createLocalTestStorage();
    try {
      // /dev/full refuses every write with ENOSPC, as a full disk does.
      mkdirSync(`${t.directory}/media/${ORG}`, { recursive: true });
      symlinkSync('/dev/full', `${t.directory}/media/${ORG}/plein`);
      const refused = t.storage.put(`${ORG}/plein`, Readable.from([Buffer.alloc(64 * 1024, 1)]), { maxBytes: 1024 * 1024 });
      await expect(refused).rejects.toBeInstanceOf(InsufficientStorageError);
      await expect(refused).rejects.toMatchObject({ statusCode: 507, message: expect.stringMatching(/^Plus de place sur le disque du serveur/) });
      expect(readdirSync(`${t.directory}/media/${ORG}`)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('answers a write the disk refuses (a folder where the file goes) as the store’s failure, not the file’s, and leaves nothing', async () => {
    const t = await createLocalTestStorage();
    try {
      mkdirSync(`${t.directory}/media/${ORG}/dossier`, { recursive: true });
      const refused = t.storage.put(`${ORG}/dossier`, text('contenu'), { maxBytes: 1024 });
      await expect(refused).rejects.toBeInstanceOf(StorageFailureError);
      await expect(refused).rejects.toMatchObject({ transient: false, cause: expect.objectContaining({ code: 'EISDIR' }) });
      // Its parent folder taken by a file: the same, before a byte is read.
      writeFileSync(`${t.directory}/media/${ORG}/fichier`, 'x');
      await expect(t.storage.put(`${ORG}/fichier/objet`, text('contenu'), { maxBytes: 1024 })).rejects.toMatchObject({ name: 'StorageFailureError', transient: false });
      expect(readdirSync(`${t.directory}/media/${ORG}`).sort()).toEqual(['dossier', 'fichier']);
    } finally {
      await t.close();
    }
  });

  it('lives in DATA_DIR/media unless S3_BUCKET is set', () => {
    const config = loadConfig({ DATA_DIR: '/srv/flotte', APP_SECRET: 'x'.repeat(32) });
    expect(config.storage).toEqual({ kind: 'local', directory: '/srv/flotte/media' });
  });
});

describe('S3 driver', () => {
  /** The S3 driver on a server of this test at `port`, giving up after `timeoutMs` without an answer. */
  const s3On = (port: number, timeoutMs: number) =>
    new S3Storage(
      { kind: 's3', bucket: 'flotte-test', endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, forcePathStyle: true },
      { connectionTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs },
    );

  /** A server answering every request with the status and S3 error code given. */
  async function answering(status: number, code: string) {
    const server = createHttpServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(status, { 'content-type': 'application/xml' });
        response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message><RequestId>1</RequestId></Error>`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const storage = s3On(port, 2_000);
    return {
      storage,
      close: async () => {
        storage.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it.each([
    [503, 'SlowDown', true],
    [500, 'InternalError', true],
    [403, 'AccessDenied', false],
    [404, 'NoSuchBucket', false],
  ])('a write answered %i %s is the store’s failure (transient: %s), not the file’s', async (status, code, transient) => {
    const s3 = await answering(status, code);
    try {
      const refused = s3.storage.put(`${ORG}/refuse`, text('contenu'), { maxBytes: 1024 });
      await expect(refused).rejects.toBeInstanceOf(StorageFailureError);
      await expect(refused).rejects.toMatchObject({ transient, cause: expect.objectContaining({ name: code }) });
    } finally {
      await s3.close();
    }
  });

  it('a bucket that does not exist, on a real S3 server: the store’s failure, for the administrator', async () => {
    const t = await createS3TestStorage();
    try {
      if (t.config.kind !== 's3') throw new Error('S3 attendu');
      const elsewhere = new S3Storage({ ...t.config, bucket: 'flotte-absent' });
      try {
        await expect(elsewhere.put(`${ORG}/objet`, text('contenu'), { maxBytes: 1024 })).rejects.toMatchObject({ name: 'StorageFailureError', transient: false });
      } finally {
        elsewhere.close();
      }
    } finally {
      await t.close();
    }
  });

  it('gives up on a server that accepts connections and never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const storage = s3On(port, 200);
    try {
      const started = Date.now();
      await expect(storage.exists(`${ORG}/silence`)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      storage.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
