import { describe, expect, it } from 'vitest';
import { SinisterFormSchema, toSinisterFormValues } from './sinister-form-schema';

const VEHICULE = 'e0000000-0000-4000-8000-000000000001';
const base = { ...toSinisterFormValues(undefined, '2026-03-20'), vehicule: VEHICULE, sinisterDate: '2026-03-14' };
const messages = (values: object) => {
  const result = SinisterFormSchema.safeParse({ ...base, ...values });
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the claim form’s status, dates and amounts', () => {
  it('sends a new claim open, opened that day, with the amounts typed in French', () => {
    const result = SinisterFormSchema.parse({ ...base, paidAmount: '1 200,50', reserveAmount: '' });
    expect(result).toMatchObject({ status: 'open', openedAt: '2026-03-20', closedAt: null, paidAmount: 1200.5, reserveAmount: 0, description: null });
  });

  it('says what the API would: a closing date for a closed claim, no reserve left, amounts as numbers', () => {
    expect(messages({ status: 'closed' })).toEqual(['closedAt: La date de clôture est obligatoire pour un sinistre clos ou refusé']);
    expect(messages({ status: 'refused', closedAt: '2026-03-20', reserveAmount: '10' })).toEqual([
      "reserveAmount: Un sinistre clos ou refusé n'a plus de provision : mettez-la à 0",
    ]);
    expect(messages({ paidAmount: 'douze' })).toEqual(['paidAmount: Montant invalide (ex. 1 234,56)']);
    expect(messages({ openedAt: '2026-03-01' })).toEqual(["openedAt: La date d'ouverture ne peut pas précéder la date du sinistre"]);
  });

  it('drops the closing date of a claim reopened (the field is hidden)', () => {
    expect(SinisterFormSchema.parse({ ...base, status: 'inProgress', closedAt: '2026-03-19' }).closedAt).toBeNull();
  });
});
