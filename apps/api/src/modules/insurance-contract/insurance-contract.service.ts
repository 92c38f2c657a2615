import type { InsuranceContract, SaveInsuranceContractBodySchema } from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { readTenant, withTenant } from '../../db/scope.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import * as repo from './insurance-contract.repository.js';

const NOT_FOUND = 'Contrat introuvable';

const toCents = (euros: number) => Math.round(euros * 100);
const toEuros = (cents: number) => cents / 100;

function toContract(row: repo.ContractRow, covered: repo.ContractGuaranteeRow[]): InsuranceContract {
  return {
    uuid: row.uuid,
    insurer: row.insurer,
    policyNumber: row.policyNumber,
    startDate: row.startDate,
    renewalDate: row.renewalDate,
    annualPremium: toEuros(row.annualPremiumCents),
    guarantees: covered
      .filter((g) => g.contractUuid === row.uuid)
      .map((g) => ({ guaranteeUuid: g.guaranteeUuid, label: g.label, deductible: toEuros(g.deductibleCents) })),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every version of the contract, newest (the one in force) first; every member reads them. */
export async function listContracts(db: Database, ctx: AuthContext): Promise<InsuranceContract[]> {
  return readTenant(db, requireOrganization(ctx), async (tx) => {
    const rows = await repo.listContracts(tx);
    const covered = await repo.listContractGuarantees(
      tx,
      rows.map((r) => r.uuid),
    );
    return rows.map((r) => toContract(r, covered));
  });
}

/**
 * Saves the contract as a new version (history kept). With a uuid the form says which version it
 * edited: another organization's, or none, is a 404; an older one than the one in force is a
 * 409 (someone saved meanwhile). Only administrators write.
 */
export async function saveContract(
  db: Database,
  ctx: AuthContext,
  body: z.output<typeof SaveInsuranceContractBodySchema>,
): Promise<{ contract: InsuranceContract; created: boolean }> {
  const organizationUuid = requireOrganization(ctx);
  if (!isAdmin(ctx)) throw new ForbiddenError('Seul un administrateur peut modifier le contrat');
  return withTenant(db, organizationUuid, async (tx) => {
    const latest = await repo.latestContract(tx);
    if (body.uuid) {
      const edited = await repo.findContract(tx, body.uuid);
      if (!edited) throw new NotFoundError(NOT_FOUND);
      if (latest && latest.uuid !== edited.uuid) {
        throw new ConflictError('Le contrat a été modifié entre-temps : rechargez la page pour voir la dernière version');
      }
    }
    const uuids = body.guarantees.map((g) => g.guaranteeUuid);
    const known = await repo.knownGuarantees(tx, uuids);
    const unknown = body.guarantees.findIndex((g) => !known.has(g.guaranteeUuid));
    if (unknown >= 0) {
      const message = 'Garantie inconnue';
      throw new BadRequestError(`Données invalides (guarantees.${unknown}.guaranteeUuid) : ${message}`, [
        { path: `guarantees.${unknown}.guaranteeUuid`, message },
      ]);
    }
    const row = await repo.insertContract(
      tx,
      {
        organizationUuid,
        insurer: body.insurer,
        policyNumber: body.policyNumber,
        startDate: body.startDate,
        renewalDate: body.renewalDate,
        annualPremiumCents: toCents(body.annualPremium),
        authorUuid: ctx.userUuid,
      },
      body.guarantees.map((g) => ({ guaranteeUuid: g.guaranteeUuid, deductibleCents: toCents(g.deductible) })),
    );
    const covered = await repo.listContractGuarantees(tx, [row.uuid]);
    return { contract: toContract(row, covered), created: latest === null };
  });
}
