import { MAX_LENGTH } from './constants.js';
import { EmailSchema, isoDate, personName, requiredText } from './primitives.js';
import { z } from './zod.js';

/**
 * The organization's insurance intermediary (broker). Each one is kept: the current one is the
 * latest whose startDate has come; its productionEmail is told of the fleet's entries and exits.
 */
export const InsuranceIntermediarySchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  contactLastName: z.string(),
  contactFirstName: z.string(),
  email: z.string(),
  productionEmail: z.string(),
  startDate: z.iso.datetime({ offset: true }),
  createdAt: z.iso.datetime({ offset: true }),
});
export type InsuranceIntermediary = z.infer<typeof InsuranceIntermediarySchema>;
export const InsuranceIntermediaryListSchema = z.array(InsuranceIntermediarySchema);
/** No intermediary yet: null. */
export const CurrentInsuranceIntermediarySchema = InsuranceIntermediarySchema.nullable();

export const CreateInsuranceIntermediaryBodySchema = z.strictObject({
  name: requiredText(MAX_LENGTH.label, "Le nom de l'intermédiaire"),
  contactLastName: personName('Le nom du contact'),
  contactFirstName: personName('Le prénom du contact'),
  email: EmailSchema,
  productionEmail: EmailSchema,
  /** A day (its noon, Paris time) or an instant; absent: today at noon. */
  startDate: z
    .union([isoDate(), z.iso.datetime({ offset: true }).max(40, { error: 'Date de début invalide' })], { error: 'Date de début invalide' })
    .optional(),
});
export type CreateInsuranceIntermediaryBody = z.input<typeof CreateInsuranceIntermediaryBodySchema>;
