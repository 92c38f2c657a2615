import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { formatPlate, type MediaEntity, type MediaItem, THUMBNAIL_SIZE } from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { readTenant } from '../../db/scope.js';
import { AppError, NotFoundError } from '../../errors.js';
import { type AuthContext, requireOrganization } from '../../lib/auth-context.js';
import { openStoredFile } from '../../platform/storage/files.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import * as repo from './documents.repository.js';
import { toDocument } from './documents.service.js';
import * as media from './media.repository.js';
import { limited } from '../../platform/images/sharp.js';
import { makeThumbnail, readAll, thumbnailKeyOf } from './thumbnails.js';

// ---------------------------------------------------------------- the media library

const frenchDate = (iso: string) => iso.split('-').reverse().join('/');

/** The attached record as the library names it: « Nom Prénom », the plate, the claim's reference or date. */
function entityOf({ row, entityName }: media.MediaRow): MediaEntity | null {
  if (!row.entityType || !row.entityUuid) return null;
  let label: string | null = null;
  if (entityName) {
    switch (row.entityType) {
      case 'driver':
        label = entityName.driverLastName !== null ? `${entityName.driverLastName} ${entityName.driverFirstName ?? ''}`.trim() : null;
        break;
      case 'vehicule':
        label = entityName.vehiculeFound ? (entityName.plate ? formatPlate(entityName.plate) : 'Sans immatriculation') : null;
        break;
      case 'sinister':
        label = entityName.claimDate !== null ? entityName.claimRef?.trim() || frenchDate(entityName.claimDate) : null;
        break;
    }
  }
  return { type: row.entityType, uuid: row.entityUuid, label };
}

type MediaPageQuery = media.MediaFilter & { page: number; limit: number };

/** Every live file of the organization, newest first, filtered by kind, attachment and name. */
export async function mediaPage(db: Database, ctx: AuthContext, query: MediaPageQuery) {
  const organizationUuid = requireOrganization(ctx);
  const search = query.search?.trim() || undefined;
  return readTenant(db, organizationUuid, async (tx) => {
    const { items, total } = await media.mediaPage(tx, { kind: query.kind, entity: query.entity, search }, query.limit, (query.page - 1) * query.limit);
    const data: MediaItem[] = items.map((item) => ({ ...toDocument(item), entity: entityOf(item) }));
    return { data, page: query.page, nbOfPages: Math.ceil(total / query.limit), total };
  });
}

// ---------------------------------------------------------------- thumbnails

/** The thumbnail; body null when the caller already holds this version (its ETag). */
export type Thumbnail = { name: string; etag: string; body: Readable | Buffer | null; size: number };

const NOT_FOUND = 'Document introuvable';

/**
 * An image's thumbnail: read from the storage when made already, else made now (sharp) and kept
 * under its derived key. A file's bytes never change, so its stored object's key is the ETag.
 */
export async function thumbnail(
  deps: { db: Database; storage: ObjectStorage },
  ctx: AuthContext,
  uuid: string,
  options: { isFresh: (etag: string) => boolean; onStoreFailure: (error: unknown) => void },
): Promise<Thumbnail> {
  const organizationUuid = requireOrganization(ctx);
  const row = await readTenant(deps.db, organizationUuid, (tx) => repo.findLive(tx, uuid));
  if (!row || row.kind !== 'file' || !row.fileKey || !row.mediaType) throw new NotFoundError(NOT_FOUND);
  if (!row.mediaType.startsWith('image/')) throw new AppError(415, 'Ce document n’est pas une image : il n’a pas de miniature.');
  // Not the storage key itself: a digest of it and of the thumbnail's size.
  const etag = `"${createHash('sha256').update(`${row.fileKey}:${THUMBNAIL_SIZE}`).digest('base64url').slice(0, 22)}"`;
  const name = `${row.name.replace(/\.[^.]*$/, '')}.webp`;
  if (options.isFresh(etag)) return { name, etag, body: null, size: 0 };
  const key = thumbnailKeyOf(row.fileKey);
  try {
    const stored = await deps.storage.get(key);
    return { name, etag, body: stored.body, size: stored.size };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const fileKey = row.fileKey;
  const image = await limited(async () => makeThumbnail(await readAll((await openStoredFile(deps.storage, fileKey)).body), row.mediaType!, row.name));
  await keep(deps, organizationUuid, uuid, key, image).catch(options.onStoreFailure);
  return { name, etag, body: image, size: image.length };
}

/**
 * Writes the thumbnail under a key of its own, then renames it: a reader never sees half of it.
 * A file purged meanwhile would leave it behind: looked for again after, and removed then.
 */
async function keep(deps: { db: Database; storage: ObjectStorage }, organizationUuid: string, uuid: string, key: string, image: Buffer): Promise<void> {
  const partial = `${key}.${randomUUID()}.part`;
  await deps.storage.put(partial, Readable.from([image]), { maxBytes: image.length });
  try {
    await deps.storage.move(partial, key);
  } finally {
    await deps.storage.delete(partial);
  }
  const still = await readTenant(deps.db, organizationUuid, (tx) => repo.findWithAuthor(tx, uuid));
  if (!still) await deps.storage.delete(key);
}
