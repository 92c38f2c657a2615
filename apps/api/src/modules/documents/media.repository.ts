import { and, count, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { MediaEntityFilter, MediaKind } from '@flotte/contract';
import type { ReadTx } from '../../db/scope.js';
import { documents } from '../../db/schema/documents.js';
import { drivers } from '../../db/schema/drivers.js';
import { sinisters } from '../../db/schema/sinisters.js';
import { users } from '../../db/schema/users.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { searchPatterns, searchTextMatches } from '../../db/search.js';
import type { DocumentRow } from './documents.repository.js';

/**
 * The media library (/media, issue 14): every live file of the organization, whatever its folder,
 * newest first (`documents_media_idx`), with the record it is attached to read in the same query.
 */
export type MediaFilter = { kind?: MediaKind; entity?: MediaEntityFilter; search?: string };

export type MediaRow = {
  row: DocumentRow;
  author: { uuid: string; firstName: string; lastName: string } | null;
  /** What names the attached record (null: not attached, or the record is gone). */
  entityName: { driverFirstName: string | null; driverLastName: string | null; plate: string | null; vehiculeFound: boolean; claimRef: string | null; claimDate: string | null } | null;
};

const IMAGE = sql`${documents.mediaType} like 'image/%'`;
const PDF = eq(documents.mediaType, 'application/pdf');

function kindCondition(kind: MediaKind | undefined): SQL | undefined {
  switch (kind) {
    case 'image':
      return IMAGE;
    case 'pdf':
      return PDF;
    case 'other':
      return sql`not (${IMAGE} or ${PDF})`;
    default:
      return undefined;
  }
}

function entityCondition(entity: MediaEntityFilter | undefined): SQL | undefined {
  if (entity === undefined) return undefined;
  return entity === 'none' ? isNull(documents.entityUuid) : and(eq(documents.entityType, entity), isNotNull(documents.entityUuid));
}

export async function mediaPage(tx: ReadTx, filter: MediaFilter, limit: number, offset: number): Promise<{ items: MediaRow[]; total: number }> {
  const condition = and(
    eq(documents.kind, 'file'),
    isNull(documents.deletedAt),
    kindCondition(filter.kind),
    entityCondition(filter.entity),
    filter.search ? searchTextMatches(documents.nameKey, searchPatterns(filter.search)) : undefined,
  )!;
  // Each join matches only for its own entity type: one row per document, whatever it is attached to.
  const rows = await tx
    .select({
      row: documents,
      authorUuid: users.uuid,
      authorFirstName: users.firstName,
      authorLastName: users.lastName,
      driverFirstName: drivers.firstName,
      driverLastName: drivers.lastName,
      vehiculeUuid: vehicules.uuid,
      plate: vehicules.immatriculation,
      claimRef: sinisters.sinisterIntermediateRef,
      claimDate: sinisters.sinisterDate,
    })
    .from(documents)
    .leftJoin(users, eq(users.uuid, documents.authorUuid))
    .leftJoin(drivers, and(eq(documents.entityType, 'driver'), eq(drivers.uuid, documents.entityUuid)))
    .leftJoin(vehicules, and(eq(documents.entityType, 'vehicule'), eq(vehicules.uuid, documents.entityUuid)))
    .leftJoin(sinisters, and(eq(documents.entityType, 'sinister'), eq(sinisters.uuid, documents.entityUuid)))
    .where(condition)
    .orderBy(desc(documents.createdAt), desc(documents.uuid))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(documents).where(condition);
  return {
    items: rows.map((r) => ({
      row: r.row,
      author: r.authorUuid ? { uuid: r.authorUuid, firstName: r.authorFirstName ?? '', lastName: r.authorLastName ?? '' } : null,
      entityName: r.row.entityUuid
        ? {
            driverFirstName: r.driverFirstName,
            driverLastName: r.driverLastName,
            plate: r.plate,
            vehiculeFound: r.vehiculeUuid !== null,
            claimRef: r.claimRef,
            claimDate: r.claimDate,
          }
        : null,
    })),
    total: total?.n ?? 0,
  };
}
