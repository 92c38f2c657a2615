import { AvatarSchema, PhoneSchema } from './common.js';
import { ONBOARDING_STEPS } from './signup-rules.js';
import { MAX_LENGTH, ROLES } from './constants.js';
import { optionalText, UuidSchema } from './primitives.js';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './rules.js';
import { z } from './zod.js';

export const RoleSchema = z.enum(ROLES);

export const EnvironmentRefSchema = z.object({ uuid: z.uuid(), title: z.string() });
export type EnvironmentRef = z.infer<typeof EnvironmentRefSchema>;

export const SubscriptionSchema = z.object({ uuid: z.uuid(), status: z.string() });

export const OrganizationSummarySchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  avatar: AvatarSchema.nullable(),
  environment: EnvironmentRefSchema.nullable(),
  /** Billing arrives with the subscription issue; until then always null. */
  subscription: SubscriptionSchema.nullable(),
});
export type OrganizationSummary = z.infer<typeof OrganizationSummarySchema>;

export const UserSchema = z.object({
  uuid: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roles: z.array(RoleSchema),
  avatar: AvatarSchema.nullable(),
  description: z.string().nullable(),
  phone: z.string().nullable(),
  currentOrganizationUser: z
    .object({ uuid: z.uuid(), organization: OrganizationSummarySchema })
    .nullable(),
  currentEnvironmentUser: z.object({ uuid: z.uuid(), environment: EnvironmentRefSchema }).nullable(),
  /** The version of the terms of use (CGU_VERSION) the user accepted last; null: never. */
  cguAcceptedVersion: z.string().nullable(),
  /** Where a signed-up user left the onboarding; null: done, or never asked (decision 033). */
  onboardingStep: z.enum(ONBOARDING_STEPS).nullable(),
});
export type User = z.infer<typeof UserSchema>;

export const profileName = (subject: string, short: string) =>
  z
    .string({ error: `${subject} est obligatoire` })
    .trim()
    .min(1, { error: `${subject} est obligatoire` })
    .max(MAX_LENGTH.name, { error: `${short} : ${MAX_LENGTH.name} caractères maximum` })
    .refine(isSafeText, { error: `${short} : ${UNSAFE_TEXT_MESSAGE}` });

/** What a user may change on itself: anything else (roles, email, password…) is refused. */
export const UpdateUserBodySchema = z.strictObject(
  {
    firstName: profileName('Le prénom', 'Prénom').optional(),
    lastName: profileName('Le nom', 'Nom').optional(),
    phone: PhoneSchema,
    description: optionalText(500, 'Description'),
    currentOrganizationUser: z
      .union([UuidSchema, z.object({ uuid: UuidSchema })], { error: "Lien d'organisation invalide" })
      .transform((v) => (typeof v === 'string' ? v : v.uuid))
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non modifiable : ${issue.keys.join(', ')}` : undefined) },
);
export type UpdateUserBody = z.input<typeof UpdateUserBodySchema>;
