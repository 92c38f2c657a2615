import { pageSchema, PaginatedSearchQuerySchema } from './common.js';
import { newPasswordSchema } from './passwords.js';
import { EmailSchema, UuidSchema } from './primitives.js';
import { profileName } from './users.js';
import { z } from './zod.js';

// Members and invitations (issue 15). This module is the seam between the administrator's
// « Membres » section, the onboarding's « Invitez vos collègues » step and the invitation link:
// the members helper fills in the rest (listing, resend, cancel, acceptance).

/** A member's role in one organization: an administrator or a user (never ROOT or SUPERADMIN from here). */
export const MemberRoleSchema = z.enum(['ADMIN', 'USER'], { error: 'Rôle invalide : Administrateur ou Utilisateur' });
export type MemberRole = z.infer<typeof MemberRoleSchema>;

/** Days an invitation link stays valid. */
export const INVITATION_LINK_DAYS = 7;

/** POST /api/organization-invitation: invite someone by e-mail, with a role, into the current organization. */
export const CreateInvitationBodySchema = z.strictObject(
  { email: EmailSchema, role: MemberRoleSchema },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys.join(', ')}` : undefined) },
);
export type CreateInvitationBody = z.infer<typeof CreateInvitationBodySchema>;

/** A pending invitation as its organization's administrators see it. */
export const InvitationSchema = z.object({
  uuid: UuidSchema,
  email: z.string(),
  role: MemberRoleSchema,
  invitedBy: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const ListInvitationsQuerySchema = PaginatedSearchQuerySchema;
export const InvitationPageSchema = pageSchema(InvitationSchema);
export type InvitationPage = z.infer<typeof InvitationPageSchema>;

/** The one answer to a link that expired, was used or cancelled, or never existed. */
export const INVITATION_LINK_INVALID_MESSAGE =
  'Cette invitation est invalide ou a expiré : elle ne sert qu’une fois, pendant 7 jours. Demandez à votre administrateur de vous la renvoyer.';

const InvitationTokenSchema = z
  .string({ error: INVITATION_LINK_INVALID_MESSAGE })
  .min(1, { error: INVITATION_LINK_INVALID_MESSAGE })
  .max(200, { error: INVITATION_LINK_INVALID_MESSAGE })
  // What the API makes: base64url.
  .regex(/^[\w-]*$/, { error: INVITATION_LINK_INVALID_MESSAGE });

const unknownKeys = { error: (issue: { code: string; keys?: string[] }) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${(issue.keys ?? []).join(', ')}` : undefined) };

/** POST /api/invitation/check and POST /api/invitation/join: the link's token, in the body (kept out of access logs). */
export const InvitationTokenBodySchema = z.strictObject({ token: InvitationTokenSchema }, unknownKeys);
export type InvitationTokenBody = z.infer<typeof InvitationTokenBodySchema>;

/** What the link's holder sees before accepting: who invites, where, which address, and whether it already has an account. */
export const InvitationPreviewSchema = z.object({
  organization: z.object({ title: z.string() }),
  inviterName: z.string().nullable(),
  email: z.string(),
  role: MemberRoleSchema,
  accountExists: z.boolean(),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

/** The new account's fields on the invitation page (the e-mail is the invitation's: the link proves it). */
export const InvitationSignupFormSchema = z.object({
  firstName: profileName('Le prénom', 'Prénom'),
  lastName: profileName('Le nom', 'Nom'),
  password: newPasswordSchema('Le mot de passe'),
  cguAccepted: z.literal(true, { error: "Acceptez les conditions générales d'utilisation pour créer votre compte" }),
});
export type InvitationSignupForm = z.input<typeof InvitationSignupFormSchema>;

/** POST /api/invitation/accept: a new user accepts, creating the account (already confirmed). */
export const AcceptInvitationBodySchema = z.strictObject({ token: InvitationTokenSchema, ...InvitationSignupFormSchema.shape }, unknownKeys);
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBodySchema>;

/** The signed-in user's address is not the invited one. */
export const INVITATION_OTHER_EMAIL_MESSAGE =
  'Cette invitation a été envoyée à une autre adresse e-mail que celle de votre compte : connectez-vous avec le compte de l’adresse invitée.';
