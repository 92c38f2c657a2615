import { MAX_LENGTH } from './constants.js';
import { EurosSchema } from './money.js';
import { isoDate, requiredText, UuidSchema } from './primitives.js';
import { z } from './zod.js';

/** A guarantee the contract covers, with its deductible (franchise) in euros. */
export const ContractGuaranteeSchema = z.object({
  guaranteeUuid: z.uuid(),
  label: z.string(),
  deductible: z.number(),
});
export type ContractGuarantee = z.infer<typeof ContractGuaranteeSchema>;

/**
 * One version of the organization's fleet contract. Every save is a new version: GET /api/contract
 * answers them newest first, the first one is the contract in force.
 */
export const InsuranceContractSchema = z.object({
  uuid: z.uuid(),
  insurer: z.string(),
  policyNumber: z.string(),
  startDate: z.iso.date(),
  /** The échéance: when the contract renews. */
  renewalDate: z.iso.date(),
  /** Euros with cents. */
  annualPremium: z.number(),
  guarantees: z.array(ContractGuaranteeSchema),
  createdAt: z.iso.datetime({ offset: true }),
});
export type InsuranceContract = z.infer<typeof InsuranceContractSchema>;
export const InsuranceContractListSchema = z.array(InsuranceContractSchema);

export const ContractGuaranteeBodySchema = z.strictObject({
  guaranteeUuid: UuidSchema,
  deductible: EurosSchema,
});

type ContractIssueSink = { addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void };

/**
 * The rules across fields, shared with the web's form (which holds its fields as text): the
 * échéance after the start, each guarantee once.
 */
export function checkContract(body: { startDate: string; renewalDate: string; guarantees: { guaranteeUuid: string }[] }, ctx: ContractIssueSink) {
  if (body.renewalDate <= body.startDate) {
    ctx.addIssue({ code: 'custom', path: ['renewalDate'], message: "L'échéance doit être postérieure à la date de début" });
  }
  const seen = new Set<string>();
  body.guarantees.forEach((g, i) => {
    if (seen.has(g.guaranteeUuid)) ctx.addIssue({ code: 'custom', path: ['guarantees', i, 'guaranteeUuid'], message: 'Cette garantie est déjà dans la liste' });
    seen.add(g.guaranteeUuid);
  });
}

export const SaveInsuranceContractBodySchema = z
  .strictObject({
    /** The version the form shows, when it updates one; absent, a first contract is created. */
    uuid: UuidSchema.optional(),
    insurer: requiredText(MAX_LENGTH.label, "L'assureur"),
    policyNumber: requiredText(MAX_LENGTH.reference, 'Le numéro de police'),
    startDate: isoDate({ missing: 'La date de début est obligatoire' }),
    renewalDate: isoDate({ missing: "La date d'échéance est obligatoire" }),
    annualPremium: EurosSchema,
    guarantees: z
      .array(ContractGuaranteeBodySchema, { error: 'Liste de garanties invalide' })
      .max(50, { error: '50 garanties au plus' })
      .default([]),
  })
  .superRefine(checkContract);
export type SaveInsuranceContractBody = z.input<typeof SaveInsuranceContractBodySchema>;
