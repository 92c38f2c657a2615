import { GUARANTEE_EXISTS_MESSAGE, type Guarantee, type GuaranteeBody } from '@flotte/contract';
import { eq, max, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { registerCounts } from '../../db/schema/registers.js';
import { guarantees } from '../../db/schema/sinisters.js';
import { withSystem, type WriteTx } from '../../db/scope.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot } from '../../lib/auth-context.js';
import { isUniqueViolation } from '../../lib/db-errors.js';

// The guarantees list (SPEC's seed list) is global reference data, edited by ROOT only
// (decision 043). The claims lists join the label on read; their cached pages (decision 007) are
// keyed by the claims register's version, so a change of label moves that version for every
// organization in the same transaction: no cached page keeps the old label.

export const GUARANTEES_ROOT_ONLY_MESSAGE = 'Seul l’opérateur de la plateforme peut modifier la liste des garanties';

const exists = () => new ConflictError(GUARANTEE_EXISTS_MESSAGE, [{ path: 'label', message: GUARANTEE_EXISTS_MESSAGE }]);

/** Every organization's claims pages are computed again (the triggers' rule: a version only grows). */
async function moveClaimsVersions(tx: WriteTx) {
  await tx
    .update(registerCounts)
    .set({ version: sql`greatest(${registerCounts.version} + 1, (extract(epoch from clock_timestamp()) * 1000000)::bigint)` })
    .where(eq(registerCounts.register, 'sinisters'));
}

async function write<T>(db: Database, ctx: AuthContext, fn: (tx: WriteTx) => Promise<T>): Promise<T> {
  if (!isRoot(ctx)) throw new ForbiddenError(GUARANTEES_ROOT_ONLY_MESSAGE);
  try {
    return await withSystem(db, fn);
  } catch (error) {
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
}

/** Adds a guarantee at the end of the list. */
export function create(db: Database, ctx: AuthContext, body: GuaranteeBody): Promise<Guarantee> {
  return write(db, ctx, async (tx) => {
    const [last] = await tx.select({ position: max(guarantees.position) }).from(guarantees);
    const [row] = await tx
      .insert(guarantees)
      .values({ label: body.label, position: (last?.position ?? 0) + 1 })
      .returning({ uuid: guarantees.uuid, label: guarantees.label });
    return row!;
  });
}

/** Renames a guarantee: every claims list shows the new label at once. */
export function rename(db: Database, ctx: AuthContext, uuid: string, body: GuaranteeBody): Promise<Guarantee> {
  return write(db, ctx, async (tx) => {
    const [row] = await tx.update(guarantees).set({ label: body.label }).where(eq(guarantees.uuid, uuid)).returning({ uuid: guarantees.uuid, label: guarantees.label });
    if (!row) throw new NotFoundError('Garantie introuvable');
    await moveClaimsVersions(tx);
    return row;
  });
}
