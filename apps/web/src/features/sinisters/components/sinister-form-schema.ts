import { CreateSinisterBodySchema, type Sinister } from '@flotte/contract';
import { z } from 'zod';
import { formatAmountInput, parseAmountInput } from '../../../lib/amount-input';

const contract = CreateSinisterBodySchema.shape;

/** '' in a select or an autocomplete means "none": the API's null. */
const emptyToNull = (value: string) => (value === '' ? null : value);

/**
 * The claim form: CreateSinisterBodySchema with the fields as a form holds them (text for the
 * amount, the date and the selects). Each field is read into the API's type, then checked by the
 * contract's own rule, so the form says what the API would say, in the same words.
 */
export const SinisterFormSchema = CreateSinisterBodySchema.extend({
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
  totalCost: z
    .string()
    .transform((text, ctx) => {
      const amount = parseAmountInput(text);
      // Not known yet at declaration: nothing paid, nothing reserved.
      if (amount === null) return 0;
      if (Number.isNaN(amount)) {
        ctx.addIssue({ code: 'custom', message: 'Montant invalide (ex. 1 234,56)' });
        return z.NEVER;
      }
      return amount;
    })
    .pipe(contract.totalCost.unwrap()),
});

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
  'totalCost',
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
    totalCost: sinister ? formatAmountInput(sinister.totalCost) : '',
    isDeclared: sinister?.isDeclared ?? false,
    hasHumanInjury: sinister?.hasHumanInjury ?? false,
    damagedVehicule: sinister?.damagedVehicule ?? false,
    isThirdImplicated: sinister?.isThirdImplicated ?? false,
    ida: sinister?.ida ?? false,
  };
}
