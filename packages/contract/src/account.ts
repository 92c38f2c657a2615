import { MAX_LENGTH } from './constants.js';
import { EmailSchema, text } from './primitives.js';
import { z } from './zod.js';

// The account page (/account, issue 15, decision 036): avatar, e-mail change, sessions, the
// user's organizations, account deletion. Names, phone and description: UpdateUserBodySchema
// (users.ts); the password: ChangePasswordBodySchema (auth.ts).

const strict = { error: (issue: { code?: string; keys?: string[] }) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${(issue.keys ?? []).join(', ')}` : undefined) };

/** The current password, asked again before a sensitive change (e-mail, deletion). */
const CurrentPasswordSchema = text({ max: MAX_LENGTH.password, trim: false, label: 'Le mot de passe actuel', missing: 'Le mot de passe actuel est obligatoire' })
  .min(1, { error: 'Le mot de passe actuel est obligatoire' })
  .max(MAX_LENGTH.password, { error: 'Mot de passe trop long' });

// ---------------------------------------------------------------- avatar

/** Side, in pixels, of the square WebP the API keeps. */
export const AVATAR_SIZE = 256;
/** Largest image the API accepts for an avatar (before it is resized). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** What the avatar upload accepts (the client sends its square crop as PNG or WebP). */
export const AVATAR_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

// ---------------------------------------------------------------- e-mail change

/** Hours the confirmation link sent to the new address stays valid. */
export const EMAIL_CHANGE_LINK_HOURS = 24;

export const ChangeEmailBodySchema = z.strictObject({ newEmail: EmailSchema, currentPassword: CurrentPasswordSchema }, strict);
export type ChangeEmailBody = z.infer<typeof ChangeEmailBodySchema>;

/** The answer to every change request, whether the new address is free or not (no enumeration). */
export function emailChangeRequestedMessage(newEmail: string): string {
  return `Un lien de confirmation valable ${EMAIL_CHANGE_LINK_HOURS} heures vient d’être envoyé à ${newEmail}. Votre adresse change quand vous l’ouvrez.`;
}
export const EmailChangeRequestedSchema = z.object({ message: z.string() });

/** A link that expired, was used, was superseded, or never existed: one message. */
export const EMAIL_CHANGE_LINK_INVALID_MESSAGE = `Ce lien de changement d’adresse est invalide ou a expiré : il ne sert qu’une fois, pendant ${EMAIL_CHANGE_LINK_HOURS} heures. Refaites la demande depuis « Paramètres compte ».`;

export const ConfirmEmailChangeBodySchema = z.strictObject(
  {
    token: z
      .string({ error: EMAIL_CHANGE_LINK_INVALID_MESSAGE })
      .min(1, { error: EMAIL_CHANGE_LINK_INVALID_MESSAGE })
      .max(200, { error: EMAIL_CHANGE_LINK_INVALID_MESSAGE })
      .regex(/^[\w-]*$/, { error: EMAIL_CHANGE_LINK_INVALID_MESSAGE }),
  },
  strict,
);
export type ConfirmEmailChangeBody = z.infer<typeof ConfirmEmailChangeBodySchema>;

// ---------------------------------------------------------------- sessions

/** A session: a refresh-token family (decisions 003, 014), as its owner sees it. */
export const AccountSessionSchema = z.object({
  uuid: z.uuid(),
  /** « Chrome sur Windows », « Safari sur iPhone », « Appareil inconnu ». */
  device: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  lastUsedAt: z.iso.datetime({ offset: true }),
  /** The session of this request (« Cet appareil »). */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;
export const AccountSessionListSchema = z.object({ data: z.array(AccountSessionSchema) });
export type AccountSessionList = z.infer<typeof AccountSessionListSchema>;

// ---------------------------------------------------------------- organizations

/** One organization the user belongs to; role: the member's role there when the API knows it. */
export const AccountOrganizationSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  role: z.enum(['ADMIN', 'USER']).nullable(),
  current: z.boolean(),
});
export type AccountOrganization = z.infer<typeof AccountOrganizationSchema>;
export const AccountOrganizationListSchema = z.object({ data: z.array(AccountOrganizationSchema) });
export type AccountOrganizationList = z.infer<typeof AccountOrganizationListSchema>;

// ---------------------------------------------------------------- deletion

/** What the user types to confirm the deletion of their account. */
export const ACCOUNT_DELETION_WORD = 'SUPPRIMER';

export const DeleteAccountBodySchema = z.strictObject(
  {
    currentPassword: CurrentPasswordSchema,
    confirmation: text({ max: 40, label: 'La confirmation', missing: `Tapez ${ACCOUNT_DELETION_WORD} pour confirmer` }).refine((value) => value === ACCOUNT_DELETION_WORD, { error: `Tapez ${ACCOUNT_DELETION_WORD} pour confirmer` }),
  },
  strict,
);
export type DeleteAccountBody = z.infer<typeof DeleteAccountBodySchema>;
