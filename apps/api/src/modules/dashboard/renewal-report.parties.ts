import type { Database } from '../../db/client.js';
import type { AuthContext } from '../../lib/auth-context.js';

/**
 * The contract in force and the current broker, as the report's cover shows them; each null when
 * the organization has none, and the report says « Non renseigné ». The shapes are the fields the
 * report needs of InsuranceContract and InsuranceIntermediary (branch `contract`), so that wiring
 * them is one line each:
 *
 *   contract: (await listContracts(db, ctx))[0] ?? null,       // insurance-contract.service
 *   broker: await currentIntermediary(db, ctx),                 // insurance-intermediary.service
 */
export type ReportContract = { insurer: string; policyNumber: string; startDate: string; renewalDate: string; annualPremium: number };
export type ReportBroker = { name: string; contactFirstName: string; contactLastName: string; email: string };
export type ReportParties = { contract: ReportContract | null; broker: ReportBroker | null };

export async function reportParties(_db: Database, _ctx: AuthContext): Promise<ReportParties> {
  return { contract: null, broker: null };
}
