import { checkNewClaim, SETTLED_STATUSES, SinisterFieldsSchema, type Sinister } from '@flotte/contract';
import { z } from 'zod';
import { formatAmountInput, parseAmountInput } from '../../../lib/amount-input';

const contract = SinisterFieldsSchema.shape;

/** An amount as typed ('1 234,56'), empty meaning 0, then the contract's rule. */
function amountField(rule: typeof contract.paidAmount) {
  return z
    .string()
    .transform((text, ctx) => {
      const amount = parseAmountInput(text);
      if (amount === null) return 0;
      if (Number.isNaN(amount)) {
        ctx.addIssue({ code: 'custom', message: 'Montant invalide (ex. 1 234,56)' });
        return z.NEVER;
      }
      return amount;
    })
    .pipe(rule.unwrap());
}

/** A date that may stay empty (null); INVALID_DATE while the typed date is not a real one. */
function optionalDateField(rule: typeof contract.openedAt) {
  return z
    .string()
    .nullable()
    .transform((value) => value || null)
    .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Date invalide (JJ/MM/AAAA)' }).nullable())
    .pipe(rule.unwrap());
}

/** '' in a select or an autocomplete means "none": the API's null. */
const emptyToNull = (value: string) => (value === '' ? null : value);

/**
 * The claim form: CreateSinisterBodySchema with the fields as a form holds them (text for the
 * amount, the date and the selects). Each field is read into the API's type, then checked by the
 * contract's own rule, so the form says what the API would say, in the same words.
 */
export const SinisterFormSchema = SinisterFieldsSchema.omit({ totalCost: true }).extend({
  vehicule: z.string().min(1, { error: 'Choisissez le véhicule concerné' }).pipe(contract.vehicule),
  driver: z.string().transform(emptyToNull).pipe(contract.driver.unwrap()),
  guarantee: z.string().transform(emptyToNull).pipe(contract.guarantee.unwrap()),
  // The date field holds null once emptied, INVALID_DATE while the typed date is not a real one.
  sinisterDate: z
    .string()
    .nullable()
    .transform((value) => value ?? '')
    .pipe(z.string().min(1, { error: 'La date du sinistre est obligatoire' }))
    .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Date invalide (JJ/MM/AAAA)' }))
    .pipe(contract.sinisterDate),
  responsibilityRate: z
    .string()
    .transform((value) => (value === '' ? null : Number(value)))
    .pipe(contract.responsibilityRate.unwrap()),
  // Not known yet at declaration: nothing paid, nothing reserved. The total is their sum (shown, not typed).
  paidAmount: amountField(contract.paidAmount),
  reserveAmount: amountField(contract.reserveAmount),
  status: contract.status.unwrap(),
  openedAt: optionalDateField(contract.openedAt),
  closedAt: optionalDateField(contract.closedAt),
})
  // The closing date field shows for a closed or refused claim only: otherwise it sends none.
  .transform((body) => (SETTLED_STATUSES.includes(body.status) ? body : { ...body, closedAt: null }))
  .superRefine(checkNewClaim);

export type SinisterFormInput = z.input<typeof SinisterFormSchema>;
export type SinisterFormOutput = z.output<typeof SinisterFormSchema>;

/** The fields the API's 400 details may name. */
export const SINISTER_FORM_FIELDS = [
  'vehicule',
  'driver',
  'sinisterDate',
  'sinisterIntermediateRef',
  'city',
  'guarantee',
  'responsibilityRate',
  'status',
  'openedAt',
  'closedAt',
  'paidAmount',
  'reserveAmount',
  'description',
  'isDeclared',
  'hasHumanInjury',
  'damagedVehicule',
  'isThirdImplicated',
  'ida',
] as const satisfies readonly (keyof SinisterFormInput)[];

export function toSinisterFormValues(sinister: Sinister | undefined, today: string): SinisterFormInput {
  return {
    vehicule: sinister?.vehicule?.uuid ?? '',
    driver: sinister?.driver?.uuid ?? '',
    sinisterDate: sinister?.sinisterDate ?? today,
    sinisterIntermediateRef: sinister?.sinisterIntermediateRef ?? '',
    city: sinister?.city ?? '',
    guarantee: sinister?.guarantee?.uuid ?? '',
    responsibilityRate: sinister?.responsibilityRate === null || sinister?.responsibilityRate === undefined ? '' : String(sinister.responsibilityRate),
    // A new claim starts empty rather than at '0,00': nothing typed yet.
    paidAmount: sinister ? formatAmountInput(sinister.paidAmount) : '',
    reserveAmount: sinister ? formatAmountInput(sinister.reserveAmount) : '',
    status: sinister?.status ?? 'open',
    // A claim declared here has its file opened today.
    openedAt: sinister ? sinister.openedAt : today,
    closedAt: sinister?.closedAt ?? null,
    description: sinister?.description ?? '',
    isDeclared: sinister?.isDeclared ?? false,
    hasHumanInjury: sinister?.hasHumanInjury ?? false,
    damagedVehicule: sinister?.damagedVehicule ?? false,
    isThirdImplicated: sinister?.isThirdImplicated ?? false,
    ida: sinister?.ida ?? false,
  };
}
