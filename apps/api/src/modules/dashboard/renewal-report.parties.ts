import type { Database } from '../../db/client.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { listContracts } from '../insurance-contract/insurance-contract.service.js';
import { currentIntermediary } from '../insurance-intermediary/insurance-intermediary.service.js';

/**
 * The contract in force and the current broker, as the report's cover shows them; each null when
 * the organization has none, and the report says « Non renseigné ». The fields the report needs of
 * InsuranceContract and InsuranceIntermediary (decision 023), so a test can hand its own.
 */
export type ReportContract = { insurer: string; policyNumber: string; startDate: string; renewalDate: string; annualPremium: number };
export type ReportBroker = { name: string; contactFirstName: string; contactLastName: string; email: string };
export type ReportParties = { contract: ReportContract | null; broker: ReportBroker | null };

export async function reportParties(db: Database, ctx: AuthContext): Promise<ReportParties> {
  const [contract] = await listContracts(db, ctx);
  return { contract: contract ?? null, broker: await currentIntermediary(db, ctx) };
}
