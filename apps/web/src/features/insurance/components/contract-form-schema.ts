import { checkContract, EurosSchema, type InsuranceContract, SaveInsuranceContractBodySchema } from '@flotte/contract';
import { z } from 'zod';
import { formatAmountInput, parseAmountInput } from '../../../lib/amount-input';

const contract = SaveInsuranceContractBodySchema.shape;

/** An amount typed the French way ('1 234,56'), then the contract's own rule (≥ 0, cents). */
const amount = (missing: string) =>
  z
    .string()
    .transform((text, ctx) => {
      const value = parseAmountInput(text);
      if (value === null) {
        ctx.addIssue({ code: 'custom', message: missing });
        return z.NEVER;
      }
      if (Number.isNaN(value)) {
        ctx.addIssue({ code: 'custom', message: 'Montant invalide (ex. 1 234,56)' });
        return z.NEVER;
      }
      return value;
    })
    .pipe(EurosSchema);

/** A date field's value (null once emptied, INVALID_DATE while typed wrong), then the contract's rule. */
const day = (missing: string, rule: z.ZodType<string, string>) =>
  z
    .string()
    .nullable()
    .transform((value) => value ?? '')
    .pipe(z.string().min(1, { error: missing }))
    .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Date invalide (JJ/MM/AAAA)' }))
    .pipe(rule);

/**
 * The contract form: SaveInsuranceContractBodySchema with the fields as a form holds them (text
 * for amounts, the date fields' values), the same cross-field rules (checkContract), the same words.
 */
export const ContractFormSchema = z
  .object({
    uuid: contract.uuid,
    insurer: contract.insurer,
    policyNumber: contract.policyNumber,
    startDate: day('La date de début est obligatoire', contract.startDate),
    renewalDate: day("La date d'échéance est obligatoire", contract.renewalDate),
    annualPremium: amount('La prime annuelle est obligatoire'),
    guarantees: z.array(
      z.object({
        guaranteeUuid: z.string().min(1, { error: 'Choisissez la garantie' }).pipe(z.uuid({ error: 'Choisissez la garantie' })),
        deductible: amount('La franchise est obligatoire (0 sans franchise)'),
      }),
    ),
  })
  .superRefine(checkContract);

export type ContractFormInput = z.input<typeof ContractFormSchema>;
export type ContractFormOutput = z.output<typeof ContractFormSchema>;

/** The fields the API's 400 details may name. */
export const CONTRACT_FORM_FIELDS = ['insurer', 'policyNumber', 'startDate', 'renewalDate', 'annualPremium'] as const satisfies readonly (keyof ContractFormInput)[];

export function toContractFormValues(current: InsuranceContract | undefined): ContractFormInput {
  return {
    uuid: current?.uuid,
    insurer: current?.insurer ?? '',
    policyNumber: current?.policyNumber ?? '',
    startDate: current?.startDate ?? null,
    renewalDate: current?.renewalDate ?? null,
    annualPremium: current ? formatAmountInput(current.annualPremium) : '',
    guarantees: (current?.guarantees ?? []).map((g) => ({ guaranteeUuid: g.guaranteeUuid, deductible: formatAmountInput(g.deductible) })),
  };
}
