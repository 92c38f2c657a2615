import type { Readable } from 'node:stream';
import {
  type CreateFolderBody,
  cleanFileName,
  DOCUMENT_NAME_MAX,
  DOCUMENT_TRASH_DAYS,
  type DocumentItem,
  formatFileSize,
  splitExtension,
  truncateName,
  type UpdateDocumentBody,
} from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { readTenant, type ReadTx, withTenant, type WriteTx } from '../../db/scope.js';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError, PayloadTooLargeError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import { commit, discard, openStoredFile, recordStoredFile, stage, type StagedFile } from '../../platform/storage/files.js';
import type { ByteRange, ObjectStorage, StoredObject } from '../../platform/storage/storage.js';
import * as attachments from './attachments.repository.js';
import type { EntityRef } from './attachments.repository.js';
import * as repo from './documents.repository.js';
import { thumbnailKeyOf } from './thumbnails.js';
import { type AcceptedType, ACCEPTED_TYPES_TEXT, detectType, HEAD_BYTES, isPreviewable, nameForMediaType, nameForType, readHead } from './file-types.js';
import { isUniqueViolation } from '../../lib/db-errors.js';

export type DocumentLimits = { maxFileBytes: number; quotaBytes: number };
export type DocumentDeps = { db: Database; storage: ObjectStorage; limits: DocumentLimits };

const NOT_FOUND = 'Document introuvable';
const FOLDER_NOT_FOUND = 'Dossier introuvable';

export function toDocument({ row, author }: repo.DocumentWithAuthor): DocumentItem {
  const isFile = row.kind === 'file';
  return {
    uuid: row.uuid,
    kind: row.kind,
    folderName: isFile ? null : row.name,
    parent: row.parentUuid,
    media: isFile ? { name: row.name } : null,
    size: row.sizeBytes,
    type: row.mediaType,
    author,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresOn: row.expiresOn,
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

const nameTaken = (name: string) =>
  new ConflictError(`Un élément nommé « ${name} » existe déjà dans ce dossier`, [{ path: 'name', message: `Un élément nommé « ${name} » existe déjà dans ce dossier` }]);

async function guardNames<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(name);
    throw error;
  }
}

/** A live folder of the organization, or 404 (another organization's uuid is not there). */
async function requireFolder(tx: ReadTx, uuid: string) {
  const folder = await repo.findLive(tx, uuid);
  if (!folder || folder.kind !== 'folder') throw new NotFoundError(FOLDER_NOT_FOUND);
  return folder;
}

/** 'rapport.pdf', else 'rapport (2).pdf', 'rapport (3).pdf'… the first name free in the folder. */
async function freeName(tx: WriteTx, parentUuid: string | null, name: string, taken: Set<string> = new Set()): Promise<string> {
  const { base, extension } = splitExtension(name);
  const used = await repo.siblingNames(tx, parentUuid, base);
  for (const name of taken) used.add(name.toLowerCase());
  if (!used.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})${extension}`;
    const candidate = truncateName(base, DOCUMENT_NAME_MAX - Array.from(suffix).length) + suffix;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

async function loadItems(tx: ReadTx, uuids: string[]): Promise<DocumentItem[]> {
  const items = await repo.findManyWithAuthor(tx, uuids);
  const byUuid = new Map(items.map((item) => [item.row.uuid, toDocument(item)]));
  return uuids.map((uuid) => byUuid.get(uuid)!);
}

// ---------------------------------------------------------------- folders and lists

export async function createFolder(db: Database, ctx: AuthContext, body: CreateFolderBody & { folderName: string }): Promise<DocumentItem> {
  const organizationUuid = requireOrganization(ctx);
  const parentUuid = body.parent ?? null;
  return guardNames(body.folderName, () =>
    withTenant(db, organizationUuid, async (tx) => {
      // Under the tree's lock: a folder being moved to the trash meanwhile cannot get a live child.
      await repo.lockTree(tx, organizationUuid);
      if (parentUuid) await requireFolder(tx, parentUuid);
      if (await repo.nameTaken(tx, parentUuid, body.folderName)) throw nameTaken(body.folderName);
      const row = await repo.insertDocument(tx, { organizationUuid, parentUuid, kind: 'folder', name: body.folderName, authorUuid: ctx.userUuid });
      return (await loadItems(tx, [row.uuid]))[0]!;
    }),
  );
}

export async function page(db: Database, ctx: AuthContext, query: { page: number; limit: number; search?: string; parent?: string }) {
  const organizationUuid = requireOrganization(ctx);
  const search = query.search?.trim() || undefined;
  return readTenant(db, organizationUuid, async (tx) => {
    if (query.parent && !search) await requireFolder(tx, query.parent);
    const { items, total } = await repo.page(tx, { parentUuid: query.parent ?? null, search }, query.limit, (query.page - 1) * query.limit);
    return { data: items.map(toDocument), page: query.page, nbOfPages: Math.ceil(total / query.limit), total };
  });
}

export async function ancestors(db: Database, ctx: AuthContext, folderUuid: string) {
  const organizationUuid = requireOrganization(ctx);
  const chain = await readTenant(db, organizationUuid, (tx) => repo.ancestors(tx, folderUuid));
  if (chain.length === 0) throw new NotFoundError(FOLDER_NOT_FOUND);
  return chain.map((folder) => ({ uuid: folder.uuid, folderName: folder.name, parent: folder.parentUuid }));
}

/** What expires within `days` (or has expired), soonest first: the list the GED highlights. */
export async function expiring(db: Database, ctx: AuthContext, query: { page: number; limit: number; days: number }, today: string) {
  const organizationUuid = requireOrganization(ctx);
  const until = addDays(today, query.days);
  return readTenant(db, organizationUuid, async (tx) => {
    const { items, total } = await repo.expiringPage(tx, until, query.limit, (query.page - 1) * query.limit);
    return { data: items.map(toDocument), page: query.page, nbOfPages: Math.ceil(total / query.limit), total };
  });
}

function addDays(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------- upload

export type IncomingFile = { fileName: string; stream: Readable };

const quotaMessage = (limits: DocumentLimits) =>
  `L’espace de documents de votre organisation est plein (${formatFileSize(limits.quotaBytes)}) : supprimez des documents, puis videz-les de la corbeille.`;
const noRoomMessage = (name: string, remaining: number, limits: DocumentLimits) =>
  `« ${name} » ne tient pas dans l’espace de documents qui reste à votre organisation (${formatFileSize(Math.max(0, remaining))} sur ${formatFileSize(limits.quotaBytes)}) : supprimez des documents, puis videz-les de la corbeille.`;
const tooLargeMessage = (name: string, limits: DocumentLimits) => `« ${name} » dépasse la taille maximale d’un document (${formatFileSize(limits.maxFileBytes)}).`;

export class UnsupportedTypeError extends AppError {
  constructor(name: string) {
    const message = `« ${name} » : ce type de fichier n’est pas accepté. Formats acceptés : ${ACCEPTED_TYPES_TEXT}.`;
    super(415, message, [{ path: 'files', message }]);
  }
}

/** Where an upload goes: a folder of the GED (the root without parent), or a driver's, vehicle's or claim's automatic folder. */
export type UploadTarget = { parentUuid: string | null } | { entity: EntityRef };

type StagedUpload = { file: StagedFile; name: string; type: AcceptedType };

/**
 * An upload session: each file is checked (type from its bytes, size, quota) and staged in the
 * storage as it streams in; finish() records them all in one transaction, then commits them.
 * Any refusal discards every staged file: a refused upload leaves nothing, on disk, in S3 or in
 * the database.
 */
export async function startUpload(deps: DocumentDeps, ctx: AuthContext, target: UploadTarget) {
  const organizationUuid = requireOrganization(ctx);
  const entity = 'entity' in target ? target.entity : null;
  const folderUuid = 'parentUuid' in target ? target.parentUuid : null;
  const used = await readTenant(deps.db, organizationUuid, async (tx) => {
    if (entity) await requireEntity(tx, entity);
    else if (folderUuid) await requireFolder(tx, folderUuid);
    return repo.usedBytes(tx);
  });
  if (used >= deps.limits.quotaBytes) throw new PayloadTooLargeError(quotaMessage(deps.limits));
  const staged: StagedUpload[] = [];
  let stagedBytes = 0;

  const discardAll = async () => {
    await Promise.all(staged.map((s) => discard(deps.storage, s.file).catch(() => undefined)));
    staged.length = 0;
  };

  return {
    /** Checks and stages one file; throws (after discarding everything) when it is refused. */
    async add(incoming: IncomingFile): Promise<void> {
      try {
        const name = cleanFileName(incoming.fileName);
        const { head, body } = await readHead(incoming.stream, HEAD_BYTES);
        if (head.length === 0) throw new BadRequestError(`« ${name} » est vide.`, [{ path: 'files', message: `« ${name} » est vide.` }]);
        const type = await detectType(head, name);
        if (!type) throw new UnsupportedTypeError(name);
        const remaining = deps.limits.quotaBytes - used - stagedBytes;
        if (remaining <= 0) throw new PayloadTooLargeError(quotaMessage(deps.limits));
        const byQuota = remaining < deps.limits.maxFileBytes;
        const file = await stage(deps.storage, organizationUuid, body, {
          maxBytes: Math.min(remaining, deps.limits.maxFileBytes),
          tooLargeMessage: byQuota ? noRoomMessage(name, remaining, deps.limits) : tooLargeMessage(name, deps.limits),
        });
        staged.push({ file, name: nameForType(name, type), type });
        stagedBytes += file.size;
      } catch (error) {
        incoming.stream.destroy();
        await discardAll();
        throw error;
      }
    },

    /** Records every staged file in one transaction (quota checked again under the tree's lock), then commits them. */
    async finish(onCommitFailure: (error: unknown) => void): Promise<DocumentItem[]> {
      if (staged.length === 0) throw new BadRequestError('Joignez au moins un fichier (champ « files »).', [{ path: 'files', message: 'Joignez au moins un fichier.' }]);
      let items: DocumentItem[];
      try {
        items = await withTenant(deps.db, organizationUuid, async (tx) => {
          await repo.lockTree(tx, organizationUuid);
          const parentUuid = entity ? await entityFolder(tx, organizationUuid, entity, ctx.userUuid) : folderUuid;
          if (!entity && parentUuid) await requireFolder(tx, parentUuid);
          if ((await repo.usedBytes(tx)) + stagedBytes > deps.limits.quotaBytes) throw new PayloadTooLargeError(quotaMessage(deps.limits));
          const uuids: string[] = [];
          const names = new Set<string>();
          for (const upload of staged) {
            const name = await freeName(tx, parentUuid, upload.name, names);
            names.add(name);
            await recordStoredFile(tx, upload.file);
            const row = await repo.insertDocument(tx, {
              organizationUuid,
              parentUuid,
              kind: 'file',
              name,
              fileKey: upload.file.key,
              sizeBytes: upload.file.size,
              mediaType: upload.type.mime,
              authorUuid: ctx.userUuid,
              entityType: entity?.type,
              entityUuid: entity?.uuid,
            });
            uuids.push(row.uuid);
          }
          return loadItems(tx, uuids);
        });
      } catch (error) {
        await discardAll();
        throw error;
      }
      for (const upload of staged) {
        // The rows are committed: a failed move is finished by the storage's cleanup job.
        await commit(deps.storage, upload.file).catch(onCommitFailure);
      }
      return items;
    },

    discardAll,
  };
}

// ---------------------------------------------------------------- attachments (drivers, vehicles, claims)

/** The entity of the organization, or 404 (another organization's is not visible). */
async function requireEntity(tx: ReadTx, entity: EntityRef): Promise<string> {
  const name = await attachments.entityFolderName(tx, entity);
  if (name === null) throw new NotFoundError(attachments.ENTITY_NOT_FOUND[entity.type]);
  return name;
}

/**
 * The entity's automatic folder (« Sinistres/<référence> »…), created with its parent on the first
 * attachment. The caller holds the tree's lock: two first uploads cannot both create it. The folder
 * carries the entity's link, so it is found again once renamed or moved; a homonym gets « (2) ».
 */
async function entityFolder(tx: WriteTx, organizationUuid: string, entity: EntityRef, authorUuid: string | null): Promise<string> {
  const name = await requireEntity(tx, entity);
  const existing = await attachments.findEntityFolder(tx, entity);
  if (existing) return existing;
  const rootName = attachments.ENTITY_ROOT_FOLDER[entity.type];
  let root = (await attachments.findTypeRootFolder(tx, entity.type)) ?? (await attachments.findRootFolder(tx, rootName));
  root ??= (await repo.insertDocument(tx, { organizationUuid, parentUuid: null, kind: 'folder', name: await freeName(tx, null, rootName), authorUuid })).uuid;
  const folder = await repo.insertDocument(tx, {
    organizationUuid,
    parentUuid: root,
    kind: 'folder',
    name: await freeName(tx, root, name),
    authorUuid,
    entityType: entity.type,
    entityUuid: entity.uuid,
  });
  return folder.uuid;
}

/** The entity's files (live), by name. */
export async function entityDocuments(db: Database, ctx: AuthContext, entity: EntityRef): Promise<DocumentItem[]> {
  const organizationUuid = requireOrganization(ctx);
  return readTenant(db, organizationUuid, async (tx) => {
    await requireEntity(tx, entity);
    return loadItems(tx, (await attachments.entityFileRows(tx, entity)).map((file) => file.uuid));
  });
}

/** The entity's live files with their stored objects' keys, by name: what the claim pack zips. */
export async function entityFiles(db: Database, ctx: AuthContext, entity: EntityRef) {
  const organizationUuid = requireOrganization(ctx);
  return readTenant(db, organizationUuid, async (tx) => {
    await requireEntity(tx, entity);
    return attachments.entityFileRows(tx, entity);
  });
}

/** Takes a file off its entity: to the trash, as a deletion in the GED (restorable 30 days). */
export async function detach(db: Database, ctx: AuthContext, entity: EntityRef, documentUuid: string): Promise<void> {
  const organizationUuid = requireOrganization(ctx);
  await withTenant(db, organizationUuid, async (tx) => {
    await repo.lockTree(tx, organizationUuid);
    await requireEntity(tx, entity);
    const row = await repo.findLive(tx, documentUuid);
    if (!row || row.kind !== 'file' || row.entityType !== entity.type || row.entityUuid !== entity.uuid) throw new NotFoundError(NOT_FOUND);
    await repo.trashSubtree(tx, documentUuid);
  });
}

type WithDocuments = { uuid: string; documents: { uuid: string; name: string }[] };

/** Records with their `documents` (SPEC 3): each one's live files, { uuid, name }, by name; one query. */
async function fillDocuments<T extends WithDocuments>(tx: ReadTx, type: EntityRef['type'], items: T[]): Promise<T[]> {
  if (items.length === 0) return items;
  const refs = await attachments.entityFileRefs(
    tx,
    type,
    items.map((item) => item.uuid),
  );
  return items.map((item) => ({ ...item, documents: refs.get(item.uuid) ?? [] }));
}

/** A register's record reads and write answers with their `documents` filled. */
export function recordsWithDocuments<R extends WithDocuments>(type: EntityRef['type'], getOne: (db: Database, ctx: AuthContext, uuid: string) => Promise<R>) {
  const one = async (db: Database, ctx: AuthContext, record: R): Promise<R> => (await readTenant(db, requireOrganization(ctx), (tx) => fillDocuments(tx, type, [record])))[0]!;
  return {
    getOne: async (db: Database, ctx: AuthContext, uuid: string): Promise<R> => one(db, ctx, await getOne(db, ctx, uuid)),
    /** A record a write answers with. */
    one,
    /** A write answering with a record (archive, restore), its answer filled. */
    record:
      <B extends unknown[]>(write: (db: Database, ctx: AuthContext, ...rest: B) => Promise<R>) =>
      async (db: Database, ctx: AuthContext, ...rest: B): Promise<R> =>
        one(db, ctx, await write(db, ctx, ...rest)),
  };
}

// ---------------------------------------------------------------- rename, move, expiry

export async function update(db: Database, ctx: AuthContext, uuid: string, body: UpdateDocumentBody & { name?: string }): Promise<DocumentItem> {
  const organizationUuid = requireOrganization(ctx);
  return guardNames(body.name ?? '', () =>
    withTenant(db, organizationUuid, async (tx) => {
      await repo.lockTree(tx, organizationUuid);
      const current = await repo.findLive(tx, uuid);
      if (!current) throw new NotFoundError(NOT_FOUND);
      const values: Parameters<typeof repo.updateDocument>[2] = {};
      if (body.parent !== undefined && body.parent !== current.parentUuid) {
        if (body.parent !== null) {
          await requireFolder(tx, body.parent);
          if (current.kind === 'folder' && (await repo.isInSubtree(tx, body.parent, uuid))) {
            const message = 'Un dossier ne peut pas être déplacé dans lui-même ni dans un de ses sous-dossiers';
            throw new BadRequestError(message, [{ path: 'parent', message }]);
          }
        }
        values.parentUuid = body.parent;
      }
      if (body.name !== undefined) {
        // A file keeps an extension of its type: 'constat' stays 'constat.pdf'.
        values.name = current.mediaType ? nameForMediaType(body.name, current.mediaType) : body.name;
      }
      if (body.expiresOn !== undefined) values.expiresOn = body.expiresOn;
      const name = values.name ?? current.name;
      if ((values.name !== undefined || values.parentUuid !== undefined) && (await repo.nameTaken(tx, values.parentUuid !== undefined ? values.parentUuid : current.parentUuid, name, uuid))) {
        throw nameTaken(name);
      }
      let row;
      try {
        row = await repo.updateDocument(tx, uuid, values);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(values.name ?? current.name);
        throw error;
      }
      if (!row) throw new NotFoundError(NOT_FOUND);
      return (await loadItems(tx, [uuid]))[0]!;
    }),
  );
}

// ---------------------------------------------------------------- trash

export async function remove(db: Database, ctx: AuthContext, uuid: string, recursive: boolean): Promise<void> {
  const organizationUuid = requireOrganization(ctx);
  await withTenant(db, organizationUuid, async (tx) => {
    await repo.lockTree(tx, organizationUuid);
    const current = await repo.findLive(tx, uuid);
    if (!current) throw new NotFoundError(NOT_FOUND);
    if (current.kind === 'folder' && !recursive && (await repo.hasLiveChildren(tx, uuid))) {
      throw new ConflictError(`Le dossier « ${current.name} » n’est pas vide : confirmez la suppression de son contenu (recursive=true).`);
    }
    await repo.trashSubtree(tx, uuid);
  });
}

export async function trash(db: Database, ctx: AuthContext, query: { page: number; limit: number }) {
  const organizationUuid = requireOrganization(ctx);
  return readTenant(db, organizationUuid, async (tx) => {
    const { items, total } = await repo.trashPage(tx, query.limit, (query.page - 1) * query.limit);
    return { data: items.map(toDocument), page: query.page, nbOfPages: Math.ceil(total / query.limit), total };
  });
}

/** Back from the trash with its content: in its folder if that is still there, else at the root; renamed 'x (2)' if its name was taken since. */
export async function restore(db: Database, ctx: AuthContext, uuid: string): Promise<DocumentItem> {
  const organizationUuid = requireOrganization(ctx);
  return withTenant(db, organizationUuid, async (tx) => {
    await repo.lockTree(tx, organizationUuid);
    const trashed = await repo.findTrashed(tx, uuid);
    if (!trashed) throw new NotFoundError(NOT_FOUND);
    const parent = trashed.parentUuid ? await repo.findLive(tx, trashed.parentUuid) : null;
    const parentUuid = parent ? parent.uuid : null;
    const name = await freeName(tx, parentUuid, trashed.name);
    await repo.restoreTrashed(tx, uuid, { parentUuid, name });
    return (await loadItems(tx, [uuid]))[0]!;
  });
}

/** Deletes for good a document of the trash and what went with it (administrators): rows, then files. */
export async function purge(deps: Pick<DocumentDeps, 'db' | 'storage'>, ctx: AuthContext, uuid: string): Promise<void> {
  const organizationUuid = requireOrganization(ctx);
  if (!isAdmin(ctx)) throw new ForbiddenError('Seul un administrateur peut supprimer définitivement un document');
  const keys = await withTenant(deps.db, organizationUuid, async (tx) => {
    await repo.lockTree(tx, organizationUuid);
    if (!(await repo.findTrashed(tx, uuid))) throw new NotFoundError(NOT_FOUND);
    return repo.purgeTrashed(tx, [uuid]);
  });
  await deleteObjects(deps.storage, keys);
}

const PURGE_BATCH = 500;

/**
 * The nightly purge: what has been in the trash for 30 days goes for good, organization by
 * organization (each in its own tenant transaction), then its files. Returns how many trash
 * entries went. Idempotent: an entry already purged by another process is simply not found again.
 */
export async function purgeExpiredTrash(
  deps: Pick<DocumentDeps, 'db' | 'storage'>,
  readAll: <T>(fn: (tx: ReadTx) => Promise<T>) => Promise<T>,
  now = new Date(),
): Promise<number> {
  const before = new Date(now.getTime() - DOCUMENT_TRASH_DAYS * 24 * 3600 * 1000);
  let purged = 0;
  for (;;) {
    const expired = await readAll((tx) => repo.expiredTrash(tx, before, PURGE_BATCH));
    if (expired.length === 0) return purged;
    const byOrganization = new Map<string, { uuid: string }[]>();
    for (const entry of expired) byOrganization.set(entry.organizationUuid, [...(byOrganization.get(entry.organizationUuid) ?? []), entry]);
    for (const [organizationUuid, entries] of byOrganization) {
      const keys = await withTenant(deps.db, organizationUuid, async (tx) => {
        await repo.lockTree(tx, organizationUuid);
        return repo.purgeTrashed(
          tx,
          entries.map((entry) => entry.uuid),
        );
      });
      await deleteObjects(deps.storage, keys);
    }
    purged += expired.length;
    if (expired.length < PURGE_BATCH) return purged;
  }
}

/**
 * An entity deleted for good (a driver's erasure) takes its documents with it, inside the entity's
 * deletion transaction (a register's `purge`, lib/register-service.ts) under the tree lock: it
 * returns the documents' uuids and what removes their stored objects once that has committed.
 */
export function purgeEntityDocuments(type: EntityRef['type']) {
  return async (tx: WriteTx, organizationUuid: string, uuid: string) => {
    await repo.lockTree(tx, organizationUuid);
    const { uuids, keys } = await repo.purgeEntity(tx, { type, uuid });
    // After the rows' commit: their files, temporary copies and thumbnails.
    return { documentUuids: uuids, removeObjects: (storage: ObjectStorage) => deleteObjects(storage, keys) };
  };
}

/** Objects whose rows are gone: never served again; a failure leaves space, not data (decision 019). */
async function deleteObjects(storage: ObjectStorage, keys: string[]): Promise<void> {
  for (const key of keys) {
    await storage.delete(key);
    await storage.delete(`tmp/${key}`);
    await storage.delete(thumbnailKeyOf(key));
  }
}

// ---------------------------------------------------------------- download

export async function open(
  deps: Pick<DocumentDeps, 'db' | 'storage'>,
  ctx: AuthContext,
  uuid: string,
  inline: boolean,
  range?: ByteRange,
): Promise<{ name: string; type: string; object: StoredObject }> {
  const organizationUuid = requireOrganization(ctx);
  const row = await readTenant(deps.db, organizationUuid, (tx) => repo.findLive(tx, uuid));
  if (!row || row.kind !== 'file' || !row.fileKey || !row.mediaType) throw new NotFoundError(NOT_FOUND);
  if (inline && !isPreviewable(row.mediaType)) {
    throw new AppError(415, 'Ce document ne peut pas être prévisualisé : téléchargez-le.');
  }
  return { name: row.name, type: row.mediaType, object: await openStoredFile(deps.storage, row.fileKey, range) };
}
