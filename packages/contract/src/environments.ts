import { AvatarSchema, pageSchema, PaginatedSearchQuerySchema } from './common.js';
import { MAX_LENGTH } from './constants.js';
import { EmailSchema, integer, optionalText, optionalUrl, requiredText, UuidSchema } from './primitives.js';
import { OrganizationSummarySchema } from './users.js';
import { z } from './zod.js';

export const TierSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  startAt: z.iso.datetime({ offset: true }),
  endAt: z.iso.datetime({ offset: true }).nullable(),
});

export const EnvironmentUserSchema = z.object({
  uuid: z.uuid(),
  user: z.object({ uuid: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() }),
});

export const EnvironmentSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  refererEmail: z.string().nullable(),
  bookingUrl: z.string().nullable(),
  /** Sorted by startAt. */
  tiers: z.array(TierSchema),
  environmentUsers: z.array(EnvironmentUserSchema),
  organizations: z.array(OrganizationSummarySchema),
  freeOrganizations: z.number().int(),
  stripeProductId: z.string().nullable(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

export const EnvironmentListItemSchema = EnvironmentSchema.pick({ uuid: true, title: true, refererEmail: true }).extend({
  organizationsCount: z.number().int(),
});
export const EnvironmentPageSchema = pageSchema(EnvironmentListItemSchema);
export type EnvironmentPage = z.infer<typeof EnvironmentPageSchema>;

export const ListEnvironmentsQuerySchema = PaginatedSearchQuerySchema;

const BookingUrlSchema = optionalUrl('Lien de prise de rendez-vous invalide (https://…)');

export const CreateEnvironmentBodySchema = z.strictObject({
  title: requiredText(MAX_LENGTH.label, "Le nom de l'espace"),
  refererEmail: EmailSchema.nullable().optional(),
  bookingUrl: BookingUrlSchema,
  freeOrganizations: integer({ min: 0, max: 10_000, label: 'Le nombre', minMessage: 'Le nombre doit être positif' }).optional(),
  stripeProductId: optionalText(MAX_LENGTH.label, 'Produit'),
});
export type CreateEnvironmentBody = z.input<typeof CreateEnvironmentBodySchema>;

export const UpdateEnvironmentBodySchema = CreateEnvironmentBodySchema.partial();
export type UpdateEnvironmentBody = z.input<typeof UpdateEnvironmentBodySchema>;

export const EnvironmentUserParamsSchema = z.object({ uuid: UuidSchema });
export const EnvironmentSuperadminParamsSchema = z.object({ environmentUuid: UuidSchema });

export const SuperadminSchema = z
  .object({
    avatar: AvatarSchema.nullable(),
    firstName: z.string(),
    lastName: z.string(),
    description: z.string().nullable(),
    phone: z.string().nullable(),
  })
  .nullable();
export type Superadmin = z.infer<typeof SuperadminSchema>;

export const EnvironmentMembershipSchema = z.object({
  uuid: z.uuid(),
  environment: z.object({ uuid: z.uuid(), title: z.string() }),
});
export type EnvironmentMembership = z.infer<typeof EnvironmentMembershipSchema>;
