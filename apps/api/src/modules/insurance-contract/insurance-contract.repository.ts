import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { insuranceContractGuarantees, insuranceContracts } from '../../db/schema/insurance.js';
import { guarantees } from '../../db/schema/sinisters.js';

export type ContractRow = typeof insuranceContracts.$inferSelect;
export type ContractGuaranteeRow = { contractUuid: string; guaranteeUuid: string; label: string; deductibleCents: number };

/** Every version the scope lets through, newest first: row-level security does the filtering. */
export function listContracts(tx: ReadTx) {
  return tx.select().from(insuranceContracts).orderBy(desc(insuranceContracts.createdAt), desc(insuranceContracts.uuid));
}

export function listContractGuarantees(tx: ReadTx, contractUuids: string[]): Promise<ContractGuaranteeRow[]> {
  if (contractUuids.length === 0) return Promise.resolve([]);
  return tx
    .select({
      contractUuid: insuranceContractGuarantees.contractUuid,
      guaranteeUuid: insuranceContractGuarantees.guaranteeUuid,
      label: guarantees.label,
      deductibleCents: insuranceContractGuarantees.deductibleCents,
    })
    .from(insuranceContractGuarantees)
    .innerJoin(guarantees, eq(guarantees.uuid, insuranceContractGuarantees.guaranteeUuid))
    .where(inArray(insuranceContractGuarantees.contractUuid, contractUuids))
    .orderBy(asc(guarantees.position), asc(guarantees.label));
}

export async function findContract(tx: ReadTx, uuid: string) {
  const [row] = await tx.select().from(insuranceContracts).where(eq(insuranceContracts.uuid, uuid)).limit(1);
  return row ?? null;
}

export async function latestContract(tx: ReadTx) {
  const [row] = await tx.select().from(insuranceContracts).orderBy(desc(insuranceContracts.createdAt), desc(insuranceContracts.uuid)).limit(1);
  return row ?? null;
}

export async function knownGuarantees(tx: ReadTx, uuids: string[]) {
  if (uuids.length === 0) return new Set<string>();
  const rows = await tx.select({ uuid: guarantees.uuid }).from(guarantees).where(inArray(guarantees.uuid, uuids));
  return new Set(rows.map((r) => r.uuid));
}

/** Runs inside a tenant transaction: organization_uuid must be the scoped one (RLS WITH CHECK). */
export async function insertContract(
  tx: WriteTx,
  values: typeof insuranceContracts.$inferInsert,
  covered: { guaranteeUuid: string; deductibleCents: number }[],
) {
  const [row] = await tx.insert(insuranceContracts).values(values).returning();
  if (covered.length > 0) {
    await tx
      .insert(insuranceContractGuarantees)
      .values(covered.map((g) => ({ ...g, contractUuid: row!.uuid, organizationUuid: values.organizationUuid })));
  }
  return row!;
}
