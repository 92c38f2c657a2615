import { AvatarSchema, pageSchema, PaginatedSearchQuerySchema } from './common.js';
import { MAX_LENGTH } from './constants.js';
import { EmailSchema, integer, isoDate, OptionalEmailSchema, optionalText, optionalUrl, personName, requiredText, UuidSchema } from './primitives.js';
import { OrganizationSummarySchema } from './users.js';
import { z } from './zod.js';

/**
 * A dated price of an environment (decision 043): from its start day (midnight, Paris time), each
 * vehicle costs priceCents a month; includedOrganizations are covered by that price and
 * freeOrganizations cost nothing. The tier in force is the latest whose start has passed.
 */
export const TierSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  /** Midnight of startDate in Europe/Paris. */
  startAt: z.iso.datetime({ offset: true }),
  /** The start day, Paris calendar (YYYY-MM-DD). */
  startDate: z.iso.date(),
  endAt: z.iso.datetime({ offset: true }).nullable(),
  /** Price per vehicle per month, in euro cents, excluding VAT. */
  priceCents: z.number().int(),
  includedOrganizations: z.number().int(),
  freeOrganizations: z.number().int(),
});
export type Tier = z.infer<typeof TierSchema>;

const tierCount = (label: string) => integer({ min: 0, max: 10_000, label, minMessage: `${label} doit être positif` });

/** POST /api/environment/{uuid}/tier (ROOT). */
export const CreateTierBodySchema = z.strictObject({
  title: requiredText(MAX_LENGTH.label, 'Le nom du palier'),
  startDate: isoDate({ missing: 'La date de début est obligatoire' }),
  priceCents: integer({ min: 0, max: 10_000_000, label: 'Le prix', minMessage: 'Le prix doit être positif' }),
  includedOrganizations: tierCount('Le nombre d’organisations incluses').optional(),
  freeOrganizations: tierCount('Le nombre d’organisations gratuites').optional(),
});
export type CreateTierBody = z.input<typeof CreateTierBodySchema>;
/** PATCH /api/environment/{uuid}/tier/{tierUuid} (ROOT). */
export const UpdateTierBodySchema = CreateTierBodySchema.partial();
export type UpdateTierBody = z.input<typeof UpdateTierBodySchema>;
export const TierParamsSchema = z.object({ uuid: UuidSchema, tierUuid: UuidSchema });
/** GET /api/environment/{uuid}/tier: sorted by startAt, with the uuid of the one in force. */
export const TierListSchema = z.object({ data: z.array(TierSchema), current: z.uuid().nullable() });
export type TierList = z.infer<typeof TierListSchema>;
export const TIER_SAME_DAY_MESSAGE = 'Un palier de cet espace commence déjà ce jour-là';

export const EnvironmentUserSchema = z.object({
  uuid: z.uuid(),
  user: z.object({ uuid: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() }),
});

export const EnvironmentSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  /** Its logo (decision 042): a WebP inside 512 × 256 px, at a versioned public URL. */
  logo: z.object({ url: z.string() }).nullable(),
  refererEmail: z.string().nullable(),
  bookingUrl: z.string().nullable(),
  /** Sorted by startAt. */
  tiers: z.array(TierSchema),
  environmentUsers: z.array(EnvironmentUserSchema),
  organizations: z.array(OrganizationSummarySchema),
  freeOrganizations: z.number().int(),
  stripeProductId: z.string().nullable(),
  /** Its SUPERADMINs must use two-factor sign-in (decision 035). */
  requireSuperadminTotp: z.boolean(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

export const EnvironmentListItemSchema = EnvironmentSchema.pick({ uuid: true, title: true, refererEmail: true }).extend({
  organizationsCount: z.number().int(),
});
export type EnvironmentListItem = z.infer<typeof EnvironmentListItemSchema>;

/** A row of /root/spaces (ROOT only): the space, its superadmins, the tier in force and its usage. */
export const RootSpaceSchema = EnvironmentListItemSchema.extend({
  bookingUrl: z.string().nullable(),
  freeOrganizations: z.number().int(),
  stripeProductId: z.string().nullable(),
  superadmins: z.array(z.object({ uuid: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() })),
  /** The latest tier whose start has passed, or null. */
  currentTier: TierSchema.nullable(),
  tiersCount: z.number().int(),
  usage: z.object({
    /** Vehicles of its organizations that are in the fleet today (no exit date passed). */
    vehicules: z.number().int(),
    organizations: z.number().int(),
    /** Bytes of the stored files of its organizations. */
    storageBytes: z.number().int(),
  }),
});
export type RootSpace = z.infer<typeof RootSpaceSchema>;
export const RootSpacePageSchema = pageSchema(RootSpaceSchema);
export type RootSpacePage = z.infer<typeof RootSpacePageSchema>;
export const EnvironmentPageSchema = pageSchema(EnvironmentListItemSchema);
export type EnvironmentPage = z.infer<typeof EnvironmentPageSchema>;

export const ListEnvironmentsQuerySchema = PaginatedSearchQuerySchema;

/** Opened from the help dialog in a new tab: an https address only (decision 040). */
const BookingUrlSchema = optionalUrl('Lien de prise de rendez-vous invalide : une adresse https://… est attendue', { httpsOnly: true });

const EnvironmentFieldsSchema = z.strictObject({
  title: requiredText(MAX_LENGTH.label, "Le nom de l'espace"),
  /** Empty reads as null, as the settings form sends a cleared field. */
  refererEmail: OptionalEmailSchema,
  bookingUrl: BookingUrlSchema,
  freeOrganizations: integer({ min: 0, max: 10_000, label: 'Le nombre', minMessage: 'Le nombre doit être positif' }).optional(),
  stripeProductId: optionalText(MAX_LENGTH.label, 'Produit'),
  requireSuperadminTotp: z.boolean({ error: 'Double authentification des superadministrateurs : vrai ou faux attendu' }).optional(),
});

/** The first superadmin of a new space, invited by e-mail (decision 043). */
export const SpaceSuperadminBodySchema = z.strictObject({
  email: EmailSchema,
  firstName: personName('Le prénom'),
  lastName: personName('Le nom'),
});
export type SpaceSuperadminBody = z.input<typeof SpaceSuperadminBodySchema>;

export const CreateEnvironmentBodySchema = EnvironmentFieldsSchema.extend({ superadmin: SpaceSuperadminBodySchema.optional() });
export type CreateEnvironmentBody = z.input<typeof CreateEnvironmentBodySchema>;

export const UpdateEnvironmentBodySchema = EnvironmentFieldsSchema.partial();
export type UpdateEnvironmentBody = z.input<typeof UpdateEnvironmentBodySchema>;

/** What a superadmin edits on /superadmin/settings (the billing fields are ROOT's). */
export const EnvironmentSettingsBodySchema = UpdateEnvironmentBodySchema.pick({ title: true, refererEmail: true, bookingUrl: true });
export type EnvironmentSettingsBody = z.input<typeof EnvironmentSettingsBodySchema>;

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
