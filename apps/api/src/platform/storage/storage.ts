import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { StorageConfig } from '../../config.js';
import { AppError, InsufficientStorageError, isNoSpace, PayloadTooLargeError, RangeNotSatisfiableError, StorageFailureError } from '../../errors.js';

/**
 * Where the application keeps files (decision 019): one interface, two drivers — the local disk
 * under DATA_DIR/media (default) and an S3-compatible bucket. Feature code does not call put
 * itself: it stores a file through the staging protocol of files.ts, which writes under a
 * temporary key and commits when the database row is.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /**
   * Writes the stream under key, reading it only while it stays within maxBytes: past that it
   * stops reading, removes what it wrote and throws PayloadTooLargeError (413). An existing
   * object under the same key is replaced.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  /**
   * The object as a stream, whole or a byte range (start and end included, as in HTTP: an end
   * beyond the object is cut to its last byte; a start beyond it is RangeNotSatisfiableError, 416).
   * A missing key is NotFoundError. The caller must read the body to its end or destroy it.
   */
  get(key: string, range?: ByteRange): Promise<StoredObject>;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Renames an object (the staging protocol's commit). A missing source is NotFoundError. */
  move(from: string, to: string): Promise<void>;
  /** Every object whose key starts with prefix (a whole key segment, ending in '/'). */
  list(prefix: string): AsyncIterable<ListedObject>;
  close(): void;
}

export type PutOptions = { maxBytes: number; tooLargeMessage?: string };
export type ByteRange = { start: number; end?: number };
export type StoredObject = {
  body: Readable;
  /** Bytes of the whole object. */
  size: number;
  /** The first and last byte of the object in body (end = start - 1 for an empty body). */
  start: number;
  end: number;
};
export type ListedObject = { key: string; lastModified: Date };

/** The default refusal; a feature may say what it accepts (« La photo dépasse 10 Mo. »). */
export function tooLargeMessage(maxBytes: number): string {
  return `Le fichier dépasse la taille maximale autorisée (${formatBytes(maxBytes)}).`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1)).toLocaleString('fr-FR')} Mo`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1)).toLocaleString('fr-FR')} Ko`;
  return `${bytes} octets`;
}

/** A key is never a user's file name: safe segments only, so it cannot leave DATA_DIR/media. */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const MAX_KEY_LENGTH = 512;

export class InvalidObjectKeyError extends Error {
  constructor(key: unknown) {
    super(`Invalid object key: ${JSON.stringify(String(key)).slice(0, 80)}`);
    this.name = 'InvalidObjectKeyError';
  }
}

/**
 * Refuses anything but segments of letters, digits, '.', '_' and '-' that start with a letter or
 * digit, joined by single '/': no '..', no '.', no absolute path, no backslash, no empty segment.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) throw new InvalidObjectKeyError(key);
}

export function assertValidPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || !prefix.endsWith('/')) throw new InvalidObjectKeyError(prefix);
  assertValidKey(prefix.slice(0, -1));
}

export function assertValidRange(range: ByteRange | undefined): void {
  if (range === undefined) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
    throw new RangeNotSatisfiableError();
  }
}

export function assertValidLimit(maxBytes: number): void {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new TypeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
}

/**
 * Passes bytes through while their total stays within maxBytes; the first chunk past it fails
 * the stream with PayloadTooLargeError, so whatever reads from the source stops there.
 */
export class ByteLimit extends Transform {
  bytes = 0;
  exceeded = false;

  constructor(
    private readonly maxBytes: number,
    private readonly message: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.exceeded = true;
      callback(new PayloadTooLargeError(this.message));
      return;
    }
    callback(null, chunk);
  }
}

/**
 * What a driver's put throws when it failed: the source's own error (the request's bytes: a
 * client gone, a limit passed) as it is; a full disk as 507; any other failure of the store's
 * write as StorageFailureError, so that no caller mistakes it for a fault of the file.
 */
export function writeFailure(error: unknown, sourceFailed: boolean, transient: (error: unknown) => boolean): unknown {
  if (sourceFailed || error instanceof AppError) return error;
  if (isNoSpace(error)) return new InsufficientStorageError();
  return new StorageFailureError(transient(error), error);
}

/** The storage the configuration asks for. The S3 client is only loaded when S3 is used. */
export async function createStorage(config: StorageConfig): Promise<ObjectStorage> {
  if (config.kind === 'local') {
    const { LocalDiskStorage } = await import('./local-disk-storage.js');
    return new LocalDiskStorage(config.directory);
  }
  const { S3Storage } = await import('./s3-storage.js');
  return new S3Storage(config);
}
