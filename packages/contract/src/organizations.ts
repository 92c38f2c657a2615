import { AvatarSchema, pageSchema, PaginatedSearchQuerySchema } from './common.js';
import { MemberRoleSchema } from './invitations.js';
import { UuidSchema } from './primitives.js';
import { OrganizationSummarySchema } from './users.js';
import { z } from './zod.js';

export const OrganizationSchema = OrganizationSummarySchema;
export type Organization = z.infer<typeof OrganizationSchema>;

export const ListOrganizationsQuerySchema = PaginatedSearchQuerySchema;
export type ListOrganizationsQuery = z.input<typeof ListOrganizationsQuerySchema>;

export const OrganizationPageSchema = pageSchema(OrganizationSchema);
export type OrganizationPage = z.infer<typeof OrganizationPageSchema>;

export const OrganizationUserSchema = z.object({
  uuid: z.uuid(),
  organization: OrganizationSchema,
  user: z.object({
    uuid: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    avatar: AvatarSchema.nullable(),
    /** Signs in with a code (two-factor): told to the environment's superadmin and ROOT, who may reset it; null for others. */
    twoFactor: z.boolean().nullable(),
  }),
  /** The member's role in this organization (decision 034). */
  role: MemberRoleSchema,
});
export type OrganizationUser = z.infer<typeof OrganizationUserSchema>;

export const ListOrganizationUsersQuerySchema = PaginatedSearchQuerySchema.extend({
  organization: UuidSchema.optional(),
});
export type ListOrganizationUsersQuery = z.input<typeof ListOrganizationUsersQuerySchema>;

export const OrganizationUserPageSchema = pageSchema(OrganizationUserSchema);
export type OrganizationUserPage = z.infer<typeof OrganizationUserPageSchema>;

const refOrUuid = (label: string) =>
  z
    .union([UuidSchema, z.object({ uuid: UuidSchema })], { error: `${label} invalide` })
    .transform((v) => (typeof v === 'string' ? v : v.uuid));

export const CreateOrganizationUserBodySchema = z.strictObject({
  user: refOrUuid('Utilisateur'),
  organization: refOrUuid('Organisation'),
});
export type CreateOrganizationUserBody = z.input<typeof CreateOrganizationUserBodySchema>;

/** PATCH /api/organization-user/{id}: an administrator changes a member's role (never ROOT or SUPERADMIN from here). */
export const UpdateOrganizationUserBodySchema = z.strictObject(
  { role: MemberRoleSchema },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non modifiable : ${issue.keys.join(', ')}` : undefined) },
);
export type UpdateOrganizationUserBody = z.infer<typeof UpdateOrganizationUserBodySchema>;
