import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NotFoundError, RangeNotSatisfiableError } from '../../errors.js';
import {
  assertValidKey,
  assertValidLimit,
  assertValidPrefix,
  assertValidRange,
  ByteLimit,
  type ByteRange,
  type ListedObject,
  type ObjectStorage,
  type PutOptions,
  type StoredObject,
  tooLargeMessage,
  writeFailure,
} from './storage.js';

/** A disk's errors worth trying again (I/O, busy, out of descriptors); the others need the administrator (rights, read-only). */
const TRANSIENT_DISK_CODES = new Set(['EIO', 'EAGAIN', 'EBUSY', 'EMFILE', 'ENFILE', 'ETIMEDOUT']);

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Flushed to the disk before a row points to it: a power cut does not leave half a file behind a committed row. */
async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Objects as files under one directory (DATA_DIR/media): the key's segments are the path's. */
export class LocalDiskStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(directory: string) {
    this.root = path.resolve(directory);
  }

  /** The file of a key; the key is checked first, and the result must lie inside the root. */
  private pathOf(key: string): string {
    assertValidKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Object key escapes the storage directory: ${key}`);
    return file;
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }> {
    const file = this.pathOf(key);
    assertValidLimit(options.maxBytes);
    let sourceFailed = false;
    body.once('error', () => (sourceFailed = true));
    const limit = new ByteLimit(options.maxBytes, options.tooLargeMessage ?? tooLargeMessage(options.maxBytes));
    let out: WriteStream | undefined;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      out = createWriteStream(file, { mode: 0o600 });
      // pipeline destroys the source as soon as the limit fails: nothing more is read.
      await pipeline(body, limit, out);
      await syncFile(file);
      await syncFile(path.dirname(file));
    } catch (error) {
      // A stream destroyed before its file was opened still opens (creates) it, then closes it:
      // removed before that, the file would come back. Wait for the close, then remove.
      if (out && !out.closed) await once(out, 'close').catch(() => undefined);
      await rm(file, { force: true }).catch(() => undefined);
      // A full disk is no defect of the request: said in French (507), the half-written file removed above.
      throw writeFailure(error, sourceFailed, (failure) => TRANSIENT_DISK_CODES.has((failure as { code?: string }).code ?? ''));
    }
    return { size: limit.bytes };
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject> {
    const file = this.pathOf(key);
    assertValidRange(range);
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isMissing(error)) throw new NotFoundError('Fichier introuvable');
      throw error;
    }
    try {
      const stats = await handle.stat();
      // A key that names a folder of keys (`<org>` of `<org>/<uuid>`) is no object, as on S3.
      if (!stats.isFile()) throw new NotFoundError('Fichier introuvable');
      const { size } = stats;
      const start = range?.start ?? 0;
      if (range && start >= size) throw new RangeNotSatisfiableError();
      const end = Math.min(range?.end ?? size - 1, size - 1);
      // An empty file: createReadStream reads nothing from start 0 without an end.
      const body = handle.createReadStream(end >= start ? { start, end } : { start });
      return { body, size, start, end };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    // A key that names a folder of keys is no object: nothing to delete, as on S3.
    if (!(await this.exists(key))) return;
    await rm(file, { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async move(from: string, to: string): Promise<void> {
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      // One rename: the object is at one key or the other, never half at both.
      await rename(source, target);
    } catch (error) {
      if (isMissing(error)) throw new NotFoundError('Fichier introuvable');
      throw error;
    }
    await syncFile(path.dirname(target));
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    const directory = this.pathOf(prefix.slice(0, -1));
    let entries;
    try {
      entries = await readdir(directory, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const key = path.relative(this.root, file).split(path.sep).join('/');
      try {
        yield { key, lastModified: (await stat(file)).mtime };
      } catch (error) {
        // Moved or removed since the directory was read (another process's cleanup, a commit).
        if (!isMissing(error)) throw error;
      }
    }
  }

  close(): void {}
}
