import { MAX_LENGTH } from './constants.js';
import { EmailSchema, text } from './primitives.js';
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
      newPassword: text({ max: MAX_LENGTH.password, trim: false, label: 'Le nouveau mot de passe', missing: 'Le nouveau mot de passe est obligatoire' })
        .min(12, { error: 'Le nouveau mot de passe doit contenir au moins 12 caractères' })
        .max(MAX_LENGTH.password, { error: 'Mot de passe trop long' }),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys.join(', ')}` : undefined) },
  )
  .refine((body) => body.newPassword !== body.currentPassword, {
    error: "Le nouveau mot de passe doit être différent de l'actuel",
    path: ['newPassword'],
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const TokensSchema = z.object({ access_token: z.string() });

export const LoginResponseSchema = z.object({ tokens: TokensSchema, user: UserSchema });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RefreshResponseSchema = z.object({ tokens: TokensSchema });
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;
