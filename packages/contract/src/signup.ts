import { CGU_VERSION, MAX_LENGTH } from './constants.js';
import { CGU_REQUIRED_MESSAGE, checkCompanyId, FLEET_SIZES, ONBOARDING_STEPS, SIGNUP_LINK_INVALID_MESSAGE } from './signup-rules.js';
import { newPasswordSchema } from './passwords.js';
import { EmailSchema, personName, requiredText, text } from './primitives.js';
import { LoginResponseSchema } from './auth.js';
import { CreateInvitationBodySchema } from './invitations.js';
import { z } from './zod.js';

// Signup, e-mail confirmation and onboarding (issue 15, decision 033).

const unknownKeys = { error: (issue: { code: string; keys?: string[] }) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${(issue.keys ?? []).join(', ')}` : undefined) };

/** POST /api/auth/signup: a new account, unconfirmed until its link is opened. */
export const SignupBodySchema = z.strictObject(
  {
    firstName: personName('Le prénom'),
    lastName: personName('Le nom'),
    email: EmailSchema,
    password: newPasswordSchema('Le mot de passe'),
    /** The version of the terms (CGU_VERSION) the user ticked: only the one in force. */
    cguVersion: text({ max: 20, label: 'La version des conditions', missing: CGU_REQUIRED_MESSAGE })
      .min(1, { error: CGU_REQUIRED_MESSAGE })
      .refine((version) => version === CGU_VERSION, { error: 'Ces conditions ne sont plus les dernières : rechargez la page pour lire la version en vigueur.' }),
  },
  unknownKeys,
);
export type SignupBody = z.infer<typeof SignupBodySchema>;

/** The signup form: the body's fields, the CGU as a box to tick. */
export const SignupFormSchema = z.object({
  firstName: personName('Le prénom'),
  lastName: personName('Le nom'),
  email: EmailSchema,
  password: newPasswordSchema('Le mot de passe'),
  cgu: z.boolean().refine((ticked) => ticked, { error: CGU_REQUIRED_MESSAGE }),
});
export type SignupForm = z.infer<typeof SignupFormSchema>;

export const SignupResponseSchema = z.object({ message: z.string() });
export type SignupResponse = z.infer<typeof SignupResponseSchema>;

/** POST /api/auth/signup/resend: a new confirmation link (same answer for any address). */
export const SignupResendBodySchema = z.strictObject({ email: EmailSchema }, unknownKeys);
export type SignupResendBody = z.infer<typeof SignupResendBodySchema>;

const SignupTokenSchema = z
  .string({ error: SIGNUP_LINK_INVALID_MESSAGE })
  .min(1, { error: SIGNUP_LINK_INVALID_MESSAGE })
  .max(200, { error: SIGNUP_LINK_INVALID_MESSAGE })
  .regex(/^[\w-]*$/, { error: SIGNUP_LINK_INVALID_MESSAGE });

/** POST /api/auth/signup/confirm: opens the link once; answers a session, as the login does. */
export const SignupConfirmBodySchema = z.strictObject({ token: SignupTokenSchema }, unknownKeys);
export type SignupConfirmBody = z.infer<typeof SignupConfirmBodySchema>;
export const SignupConfirmResponseSchema = LoginResponseSchema;

// Onboarding: /onboarding → /onboarding/company → /onboarding/members → /onboarding/finish.

export const OnboardingStepSchema = z.enum(ONBOARDING_STEPS, { error: 'Étape inconnue' });

/** GET /api/onboarding: where the user is ('done': nothing to do), and the organization made on the way. */
export const OnboardingStateSchema = z.object({
  step: z.enum([...ONBOARDING_STEPS, 'done']),
  organization: z
    .object({
      uuid: z.uuid(),
      title: z.string(),
      siren: z.string().nullable(),
      siret: z.string().nullable(),
      address: z.string().nullable(),
      fleetSize: z.enum(FLEET_SIZES).nullable(),
      logo: z.object({ url: z.string() }).nullable(),
    })
    .nullable(),
});
export type OnboardingState = z.infer<typeof OnboardingStateSchema>;

/** PUT /api/onboarding/step: remembers the step reached (a reload, a new sign-in resume there); 'done' ends it. */
export const OnboardingStepBodySchema = z.strictObject({ step: z.enum([...ONBOARDING_STEPS, 'done'], { error: 'Étape inconnue' }) }, unknownKeys);
export type OnboardingStepBody = z.infer<typeof OnboardingStepBodySchema>;

/** A SIREN or SIRET as typed (spaces allowed), checked with its Luhn key. */
const companyIdText = text({ max: 40, label: 'Le SIREN ou le SIRET', missing: 'Le SIREN ou le SIRET est obligatoire' }).superRefine((value, ctx) => {
  const check = checkCompanyId(value);
  if ('error' in check) ctx.addIssue({ code: 'custom', message: check.error });
});

/** The same, its output the digits and which number it is. */
export const CompanyIdSchema = companyIdText.transform((value) => checkCompanyId(value) as { kind: 'siren' | 'siret'; value: string });

const companyFields = {
  title: requiredText(MAX_LENGTH.label, 'Le nom de l’organisation'),
  address: requiredText(300, 'L’adresse'),
  fleetSize: z.enum(FLEET_SIZES, { error: 'Choisissez la taille de votre flotte' }),
};

/** POST /api/onboarding/company: the organization of a user who has none; they become its administrator. */
export const OnboardingCompanyBodySchema = z.strictObject({ ...companyFields, companyId: CompanyIdSchema }, unknownKeys);
export type OnboardingCompanyBody = z.input<typeof OnboardingCompanyBodySchema>;

/** The company form: the same checks, the values sent as typed (the logo comes after, as a file). */
export const OnboardingCompanyFormSchema = z.object({ ...companyFields, companyId: companyIdText });
export type OnboardingCompanyForm = z.input<typeof OnboardingCompanyFormSchema>;

/** The onboarding's « Invitez vos collègues »: one row per person, each sent as POST /api/organization-invitation. */
export const ONBOARDING_INVITATIONS_MAX = 20;
export const OnboardingInvitationsFormSchema = z.object({
  invitations: z
    .array(CreateInvitationBodySchema)
    .min(1, { error: 'Ajoutez au moins une personne, ou passez cette étape' })
    .max(ONBOARDING_INVITATIONS_MAX, { error: `${ONBOARDING_INVITATIONS_MAX} invitations au plus à la fois` })
    .refine((rows) => new Set(rows.map((row) => row.email)).size === rows.length, { error: 'Une même adresse figure deux fois' }),
});
export type OnboardingInvitationsForm = z.input<typeof OnboardingInvitationsFormSchema>;
