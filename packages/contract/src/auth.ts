import { MAX_LENGTH } from './constants.js';
import { newPasswordSchema } from './passwords.js';
import { EmailSchema, text } from './primitives.js';
import { LoginChallengeSchema } from './totp.js';
import { z } from './zod.js';
import { UserSchema } from './users.js';

export const LoginBodySchema = z.object({
  email: EmailSchema,
  // Spaces are part of a password: not trimmed.
  password: text({ max: MAX_LENGTH.password, trim: false, label: 'Le mot de passe', missing: 'Le mot de passe est obligatoire' })
    .min(1, { error: 'Le mot de passe est obligatoire' })
    .max(MAX_LENGTH.password, { error: 'Mot de passe trop long' }),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** A new password: long rather than complicated (OWASP), and not the current one. */
export const ChangePasswordBodySchema = z
  .strictObject(
    {
      currentPassword: text({ max: MAX_LENGTH.password, trim: false, label: 'Le mot de passe actuel', missing: 'Le mot de passe actuel est obligatoire' })
        .min(1, { error: 'Le mot de passe actuel est obligatoire' })
        .max(MAX_LENGTH.password, { error: 'Mot de passe trop long' }),
      newPassword: newPasswordSchema('Le nouveau mot de passe'),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys.join(', ')}` : undefined) },
  )
  .refine((body) => body.newPassword !== body.currentPassword, {
    error: "Le nouveau mot de passe doit être différent de l'actuel",
    path: ['newPassword'],
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const TokensSchema = z.object({ access_token: z.string() });

export const LoginSessionSchema = z.object({ tokens: TokensSchema, user: UserSchema });
export type LoginSession = z.infer<typeof LoginSessionSchema>;

/** The session, or the second step of a user with two-factor sign-in (contract totp.ts, decision 035). */
export const LoginResponseSchema = z.union([LoginSessionSchema, LoginChallengeSchema]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RefreshResponseSchema = z.object({ tokens: TokensSchema });
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

// Account recovery (issue 15): /recover/email asks for a link, /recover/password uses it.

/** Minutes a recovery link stays valid. */
export const RECOVERY_LINK_MINUTES = 60;

/** The answer to every recovery request, whether the address has an account or not (no enumeration). */
export const RECOVERY_REQUESTED_MESSAGE =
  'Si un compte existe avec cette adresse, un e-mail vient de lui être envoyé avec un lien pour choisir un nouveau mot de passe, valable 1 heure.';

/**
 * A link that expired, was used, or never existed: one message, whatever the case, for every
 * « choose your password » link: a recovery's (1 hour) and a new superadmin's (7 days, decision 043).
 */
export const RECOVERY_LINK_INVALID_MESSAGE = 'Ce lien est invalide ou a expiré : il ne sert qu’une fois, et pour une durée limitée. Demandez-en un nouveau.';

export const RecoveryRequestBodySchema = z.strictObject(
  { email: EmailSchema },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys.join(', ')}` : undefined) },
);
export type RecoveryRequestBody = z.infer<typeof RecoveryRequestBodySchema>;

export const RecoveryRequestResponseSchema = z.object({ message: z.string() });

const RecoveryTokenSchema = z
  .string({ error: RECOVERY_LINK_INVALID_MESSAGE })
  .min(1, { error: RECOVERY_LINK_INVALID_MESSAGE })
  .max(200, { error: RECOVERY_LINK_INVALID_MESSAGE })
  // What the API makes: base64url.
  .regex(/^[\w-]*$/, { error: RECOVERY_LINK_INVALID_MESSAGE });

export const RecoveryTokenBodySchema = z.strictObject({ token: RecoveryTokenSchema });
export type RecoveryTokenBody = z.infer<typeof RecoveryTokenBodySchema>;

/** A live link: whose account it opens, the address half hidden (« j•••@exemple.fr »), and until when. */
export const RecoveryTokenResponseSchema = z.object({ email: z.string(), expiresAt: z.iso.datetime({ offset: true }) });
export type RecoveryTokenResponse = z.infer<typeof RecoveryTokenResponseSchema>;

/** A new password typed twice (recovery; signup and account next), with the strength rules. */
const newPasswordPair = {
  password: newPasswordSchema('Le nouveau mot de passe'),
  confirmation: text({ max: MAX_LENGTH.password, trim: false, label: 'La confirmation', missing: 'Confirmez le nouveau mot de passe' }).min(1, { error: 'Confirmez le nouveau mot de passe' }),
};
const samePasswords = (body: { password: string; confirmation: string }) => body.password === body.confirmation;
const NOT_SAME = { error: 'Les deux mots de passe ne sont pas identiques', path: ['confirmation'] };

/** The form of a new password: the two fields, checked as the API checks them. */
export const NewPasswordFormSchema = z.object(newPasswordPair).refine(samePasswords, NOT_SAME);
export type NewPasswordForm = z.infer<typeof NewPasswordFormSchema>;

export const RecoveryPasswordBodySchema = z
  .strictObject(
    { token: RecoveryTokenSchema, ...newPasswordPair },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys.join(', ')}` : undefined) },
  )
  .refine(samePasswords, NOT_SAME);
export type RecoveryPasswordBody = z.infer<typeof RecoveryPasswordBodySchema>;

/** The account page's password change: the current password, then the new one twice. */
export const ChangePasswordFormSchema = z
  .object({
    currentPassword: text({ max: MAX_LENGTH.password, trim: false, label: 'Le mot de passe actuel', missing: 'Le mot de passe actuel est obligatoire' }).min(1, { error: 'Le mot de passe actuel est obligatoire' }),
    ...newPasswordPair,
  })
  .refine(samePasswords, NOT_SAME)
  .refine((body) => body.password !== body.currentPassword, { error: "Le nouveau mot de passe doit être différent de l'actuel", path: ['password'] });
export type ChangePasswordForm = z.infer<typeof ChangePasswordFormSchema>;
