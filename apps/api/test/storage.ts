import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { StorageConfig } from '../src/config.js';
import { createStorage, type ObjectStorage } from '../src/platform/storage/storage.js';

export type TestStorage = { storage: ObjectStorage; config: StorageConfig; close(): Promise<void> };

/** The local-disk driver in a fresh temporary directory. */
export async function createLocalTestStorage(): Promise<TestStorage & { directory: string }> {
  const parent = mkdtempSync(path.join(tmpdir(), 'flotte-media-'));
  const config: StorageConfig = { kind: 'local', directory: path.join(parent, 'media') };
  const storage = await createStorage(config);
  return {
    storage,
    config,
    directory: parent,
    async close() {
      storage.close();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/**
 * The S3 driver against a real S3-compatible server (s3rver) started here on a free port, with
 * its files in a temporary directory and one empty bucket.
 */
export async function createS3TestStorage(): Promise<TestStorage> {
  const directory = mkdtempSync(path.join(tmpdir(), 'flotte-s3-'));
  const bucket = 'flotte-test';
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const config: StorageConfig = {
    kind: 's3',
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    // s3rver's fixed credentials.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  };
  const storage = await createStorage(config);
  return {
    storage,
    config,
    async close() {
      storage.close();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The app's configuration for a bucket of createS3TestStorage (createTestApp's env). */
export function s3AppEnv(s3: TestStorage): Record<string, string> {
  const config = s3.config;
  if (config.kind !== 's3') throw new Error('s3AppEnv: an S3 test storage is expected');
  return {
    S3_BUCKET: config.bucket,
    S3_ENDPOINT: config.endpoint!,
    S3_ACCESS_KEY_ID: config.credentials!.accessKeyId,
    S3_SECRET_ACCESS_KEY: config.credentials!.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/** The keys a storage holds under a prefix, in listing order. */
export async function keysUnder(storage: ObjectStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys;
}

export const TEST_STORAGES = [
  ['local disk', createLocalTestStorage],
  ['S3 (s3rver)', createS3TestStorage],
] as const;
