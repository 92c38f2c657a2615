import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DOCUMENT_ENTITY_TYPES, documents } from '../../db/schema/documents.js';

export type EntityFileRef = { uuid: string; name: string };

/**
 * A record's live files (SPEC 3's `documents`: `{ uuid, name }` by name) as a column of its
 * register's page (list-kit `pageColumns`): one subquery per row of the page, through
 * documents_entity_idx, in the page's own statement. A write to a linked document moves the
 * register's version (migration 0022), so a held page or an ETag is never stale.
 */
export function entityFilesColumn(type: (typeof DOCUMENT_ENTITY_TYPES)[number], record: { uuid: PgColumn; organizationUuid: PgColumn }): SQL<EntityFileRef[]> {
  if (!DOCUMENT_ENTITY_TYPES.includes(type)) throw new Error(`entité inconnue : ${type}`);
  return sql<EntityFileRef[]>`(select coalesce(json_agg(json_build_object('uuid', ${documents.uuid}, 'name', ${documents.name}) order by ${documents.nameKey}, ${documents.uuid}), '[]'::json)
    from ${documents}
    where ${documents.organizationUuid} = ${record.organizationUuid} and ${documents.entityType} = ${sql.raw(`'${type}'`)} and ${documents.entityUuid} = ${record.uuid}
      and ${documents.kind} = 'file' and ${documents.deletedAt} is null)`;
}
