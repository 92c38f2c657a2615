import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageConfig } from '../../config.js';
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

export type S3Timeouts = { connectionTimeoutMs?: number; idleTimeoutMs?: number };

/** S3's smallest part: a put holds at most PART_SIZE × QUEUE_SIZE bytes in memory, never the whole file. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

/**
 * Worth trying again: S3's own faults (5xx, SlowDown) and what is no answer at all (the
 * network, a timeout); a refusal (AccessDenied, NoSuchBucket, a bad signature) needs the administrator.
 */
function transientS3(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    const status = statusOf(error) ?? 0;
    return error.$fault === 'server' || status >= 500 || status === 429 || error.name === 'SlowDown';
  }
  return true;
}

/** "bytes 2-5/11" → 11 */
function totalFromContentRange(contentRange: string | undefined): number | undefined {
  const match = contentRange?.match(/\/(\d+)$/);
  return match ? Number(match[1]) : undefined;
}

/** Objects in one bucket of AWS S3 or a compatible server (MinIO, Garage, Ceph, s3rver in tests). */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: Extract<StorageConfig, { kind: 's3' }>, timeouts: S3Timeouts = {}) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      // Without them a server that accepts and never answers holds the request forever. The
      // idle limit, not a total one, so a long download or upload is not cut while it moves.
      requestHandler: { connectionTimeout: timeouts.connectionTimeoutMs ?? 5_000, socketTimeout: timeouts.idleTimeoutMs ?? 30_000 },
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: { ...config.credentials } } : {}),
      forcePathStyle: config.forcePathStyle,
      // Checksums only where S3 requires them: not every compatible server knows the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }> {
    assertValidKey(key);
    assertValidLimit(options.maxBytes);
    const limit = new ByteLimit(options.maxBytes, options.tooLargeMessage ?? tooLargeMessage(options.maxBytes));
    // The upload reads from the limit; a failing source fails the limit, which fails the upload.
    let sourceFailed = false;
    body.once('error', (error) => {
      sourceFailed = true;
      limit.destroy(error);
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body.pipe(limit) },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      // A failed multipart upload is aborted: its parts are not left in the bucket.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      body.unpipe(limit);
      body.destroy();
      await this.delete(key).catch(() => undefined);
      // The upload reports the limit's error wrapped or as an abort: tell the real cause.
      if (limit.exceeded) throw limit.errored ?? error;
      throw writeFailure(error, sourceFailed, transientS3);
    }
    return { size: limit.bytes };
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject> {
    assertValidKey(key);
    assertValidRange(range);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
      const length = answer.ContentLength ?? 0;
      const size = range ? (totalFromContentRange(answer.ContentRange) ?? length) : length;
      const start = range?.start ?? 0;
      // The SDK's body in Node is an http.IncomingMessage: a Readable.
      const body = answer.Body instanceof Readable ? answer.Body : Readable.from([]);
      return { body, size, start, end: start + length - 1 };
    } catch (error) {
      if (statusOf(error) === 404) throw new NotFoundError('Fichier introuvable');
      if (statusOf(error) === 416) throw new RangeNotSatisfiableError();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  /**
   * Copy then delete: S3 has no rename. A crash between the two leaves the object at both keys;
   * moving again (the cleanup job does) copies the same bytes and deletes the source.
   * CopyObject takes objects up to 5 GB.
   */
  async move(from: string, to: string): Promise<void> {
    assertValidKey(from);
    assertValidKey(to);
    try {
      // Valid keys hold no character that needs escaping in CopySource.
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from}` }));
    } catch (error) {
      if (statusOf(error) === 404) throw new NotFoundError('Fichier introuvable');
      throw error;
    }
    await this.delete(from);
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    assertValidPrefix(prefix);
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: continuationToken }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified) yield { key: object.Key, lastModified: object.LastModified };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  close(): void {
    this.client.destroy();
  }
}
