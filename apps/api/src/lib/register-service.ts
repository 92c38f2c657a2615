import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import { type List, type ListQuery, type ReadOptions, readPage } from '../db/list-kit.js';
import { deleteRecord, findRecord, readRecord, updateRecord } from '../db/records.js';
import { withTenant, type WriteTx } from '../db/scope.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from './auth-context.js';
import { exportList } from './register-export.js';
import type { ObjectStorage } from '../platform/storage/storage.js';
import type { ExportFormat } from './spreadsheet-export.js';

export type RegisterServiceConfig<Q extends ListQuery, Row, T extends PgTable, Item> = {
  list: List<Q, Row, T>;
  /** One record as the API answers it (the contract's item schema). */
  toItem: (row: Row) => Item;
  /** The 404 message, e.g. 'Conducteur introuvable'. */
  notFound: string;
  /** Said to a member who is not an administrator asking for a permanent deletion. */
  adminOnlyDelete: string;
  /**
   * What goes with a record deleted for good, in its transaction, once its row is deleted (a
   * driver's documents and what the activity log tells of them, decision 049); returns what to
   * finish once that has committed (their stored objects).
   */
  purge?: (tx: WriteTx, organizationUuid: string, uuid: string) => Promise<(storage: ObjectStorage) => Promise<void>>;
};

/**
 * What every register's service does the same way (docs/adding-a-register.md): its page, one
 * record, archive (soft delete), restore and permanent deletion, all within the caller's current
 * organization. A service takes what it needs and writes its own rules next to them (a vehicle's
 * archive sets its exit date first).
 */
export function registerService<Q extends ListQuery, Row extends { archivedAt: Date | null }, T extends PgTable, Item>(
  config: RegisterServiceConfig<Q, Row, T, Item>,
) {
  const { list, toItem, notFound } = config;
  const found = (row: Row | null): Item => {
    if (!row) throw new NotFoundError(notFound);
    return toItem(row);
  };
  return {
    /** One page of the register, with its counts (db/list-kit.ts). */
    async list(db: Database, ctx: AuthContext, query: Q, options?: ReadOptions) {
      return readPage(db, requireOrganization(ctx), list, query, toItem, options);
    },

    /** The list's view (its query, every row) as a CSV or XLSX file, streamed (lib/register-export.ts). Every member may export. */
    async exportFile(db: Database, ctx: AuthContext, query: Q & { format: ExportFormat }) {
      const { format, ...listQuery } = query;
      return exportList(db, requireOrganization(ctx), list, listQuery as unknown as Q, format);
    },

    async getOne(db: Database, ctx: AuthContext, uuid: string) {
      return found(await readRecord(db, requireOrganization(ctx), list, uuid));
    },

    /** Soft delete: out of the active list until restored ('Annuler'); archiving twice changes nothing. */
    async archive(db: Database, ctx: AuthContext, uuid: string) {
      const row = await withTenant(db, requireOrganization(ctx), async (tx) => {
        const current = await findRecord(tx, list, uuid);
        if (!current || current.archivedAt) return current;
        return updateRecord(tx, list, uuid, { archivedAt: new Date() } as Partial<T['$inferInsert']>);
      });
      return found(row);
    },

    async restore(db: Database, ctx: AuthContext, uuid: string) {
      return found(await withTenant(db, requireOrganization(ctx), (tx) => updateRecord(tx, list, uuid, { archivedAt: null } as Partial<T['$inferInsert']>)));
    },

    /**
     * Permanent deletion, for administrators, with what the register's `purge` takes along.
     * Another organization's record is not found (404), whatever the role.
     */
    async hardDelete(db: Database, ctx: AuthContext, uuid: string, storage: ObjectStorage) {
      const organizationUuid = requireOrganization(ctx);
      const finish = await withTenant(db, organizationUuid, async (tx) => {
        if (!(await findRecord(tx, list, uuid))) throw new NotFoundError(notFound);
        if (!isAdmin(ctx)) throw new ForbiddenError(config.adminOnlyDelete);
        await deleteRecord(tx, list, uuid);
        return config.purge?.(tx, organizationUuid, uuid);
      });
      await finish?.(storage);
    },
  };
}
