import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { cleanFileName, formatPlate } from '@flotte/contract';
import type { ReadTx } from '../../db/scope.js';
import { type DOCUMENT_ENTITY_TYPES, documents } from '../../db/schema/documents.js';
import { drivers } from '../../db/schema/drivers.js';
import { sinisters } from '../../db/schema/sinisters.js';
import { vehicules } from '../../db/schema/vehicules.js';

/**
 * A driver's, vehicle's or claim's files (issue 14): documents rows whose entity_type and
 * entity_uuid name it, kept in the GED under an automatic folder « Conducteurs/<Nom Prénom> »,
 * « Véhicules/<AB-123-CD> », « Sinistres/<référence ou date> » (that folder carries the same link).
 */
export type EntityType = (typeof DOCUMENT_ENTITY_TYPES)[number];
export type EntityRef = { type: EntityType; uuid: string };

export const ENTITY_NOT_FOUND: Record<EntityType, string> = {
  driver: 'Conducteur introuvable',
  vehicule: 'Véhicule introuvable',
  sinister: 'Sinistre introuvable',
};

/** The GED's folder at the root holding each entity's folders. */
export const ENTITY_ROOT_FOLDER: Record<EntityType, string> = { driver: 'Conducteurs', vehicule: 'Véhicules', sinister: 'Sinistres' };

/** A name the GED accepts: a separator in a typed reference (« 2026/12 ») becomes a dash, the rest is cleaned as an upload's name. */
const folderName = (name: string) => cleanFileName(name.replace(/[/\\]/g, '-'));
const frenchDate = (iso: string) => iso.split('-').reverse().join('-');

/** The entity's folder name, or null when the organization has no such entity (row-level security hides another's). */
export async function entityFolderName(tx: ReadTx, entity: EntityRef): Promise<string | null> {
  switch (entity.type) {
    case 'driver': {
      const [row] = await tx.select({ firstName: drivers.firstName, lastName: drivers.lastName }).from(drivers).where(eq(drivers.uuid, entity.uuid)).limit(1);
      return row ? folderName(`${row.lastName} ${row.firstName}`) : null;
    }
    case 'vehicule': {
      const [row] = await tx.select({ plate: vehicules.immatriculation }).from(vehicules).where(eq(vehicules.uuid, entity.uuid)).limit(1);
      return row ? folderName(row.plate ? formatPlate(row.plate) : 'Sans immatriculation') : null;
    }
    case 'sinister': {
      const [row] = await tx.select({ ref: sinisters.sinisterIntermediateRef, date: sinisters.sinisterDate }).from(sinisters).where(eq(sinisters.uuid, entity.uuid)).limit(1);
      return row ? folderName(row.ref?.trim() || frenchDate(row.date)) : null;
    }
  }
}

const linkedTo = (entity: EntityRef) => and(eq(documents.entityType, entity.type), eq(documents.entityUuid, entity.uuid), isNull(documents.deletedAt));

/** The entity's live automatic folder, if it has one. */
export async function findEntityFolder(tx: ReadTx, entity: EntityRef): Promise<string | null> {
  const [row] = await tx
    .select({ uuid: documents.uuid })
    .from(documents)
    .where(and(linkedTo(entity), eq(documents.kind, 'folder')))
    .limit(1);
  return row?.uuid ?? null;
}

/**
 * The live root folder that already holds this type's entity folders, whatever it is called now (a
 * user renamed it, or its name was taken by a file and it became « Sinistres (2) »).
 */
export async function findTypeRootFolder(tx: ReadTx, type: EntityType): Promise<string | null> {
  const parents = alias(documents, 'parents');
  const [row] = await tx
    .select({ uuid: parents.uuid })
    .from(documents)
    .innerJoin(parents, eq(parents.uuid, documents.parentUuid))
    .where(
      and(
        eq(documents.entityType, type),
        eq(documents.kind, 'folder'),
        isNull(documents.deletedAt),
        isNull(parents.deletedAt),
        isNull(parents.parentUuid),
        eq(parents.kind, 'folder'),
      ),
    )
    .orderBy(asc(parents.createdAt))
    .limit(1);
  return row?.uuid ?? null;
}

/** A live folder at the root with this name (any case). */
export async function findRootFolder(tx: ReadTx, name: string): Promise<string | null> {
  const [row] = await tx
    .select({ uuid: documents.uuid })
    .from(documents)
    .where(and(isNull(documents.deletedAt), isNull(documents.parentUuid), eq(documents.kind, 'folder'), sql`lower(${documents.name}) = lower(${name})`))
    .limit(1);
  return row?.uuid ?? null;
}

/** The entity's live files, in French reading order of their names, with their stored objects' keys. */
export async function entityFileRows(tx: ReadTx, entity: EntityRef) {
  const rows = await tx
    .select({ uuid: documents.uuid, name: documents.name, fileKey: documents.fileKey, size: documents.sizeBytes })
    .from(documents)
    .where(and(linkedTo(entity), eq(documents.kind, 'file')))
    .orderBy(asc(documents.nameKey), asc(documents.uuid));
  // A file's row always has its key and size (documents_file_fields).
  return rows.map((row) => ({ uuid: row.uuid, name: row.name, fileKey: row.fileKey!, size: row.size! }));
}

/** Live files of several entities of one type, as a record's `documents` ({ uuid, name }). */
export async function entityFileRefs(tx: ReadTx, type: EntityType, uuids: string[]): Promise<Map<string, { uuid: string; name: string }[]>> {
  const byEntity = new Map<string, { uuid: string; name: string }[]>();
  if (uuids.length === 0) return byEntity;
  const rows = await tx
    .select({ entityUuid: documents.entityUuid, uuid: documents.uuid, name: documents.name })
    .from(documents)
    .where(and(eq(documents.entityType, type), inArray(documents.entityUuid, uuids), eq(documents.kind, 'file'), isNull(documents.deletedAt)))
    .orderBy(asc(documents.nameKey), asc(documents.uuid));
  for (const row of rows) byEntity.set(row.entityUuid!, [...(byEntity.get(row.entityUuid!) ?? []), { uuid: row.uuid, name: row.name }]);
  return byEntity;
}
