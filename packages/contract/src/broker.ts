import { MAX_LENGTH } from './constants.js';
import { AvatarSchema, pageSchema, PaginatedSearchQuerySchema, sortBySchema } from './common.js';
import { exportQuerySchema } from './exports.js';
import { OptionalEmailSchema, requiredText, UuidSchema } from './primitives.js';
import { z } from './zod.js';

/**
 * The broker's console (issue 16, decision 039): every client organization of an environment with
 * its key figures side by side (GET /api/broker/organization), its export, and the creation of an
 * organization in the environment. The figures are the dashboard's (decisions 022, 029).
 */

/** The table's columns, each a server-side sort key (`-column` for descending). */
export const BROKER_SORT_COLUMNS = [
  'title',
  'vehicles',
  'claimsThisYear',
  'lossRatio',
  'claimFrequency',
  'regularisation',
  'nextRenewal',
  'lastActivity',
] as const;
export type BrokerSortColumn = (typeof BROKER_SORT_COLUMNS)[number];

export const BrokerOrganizationsQuerySchema = PaginatedSearchQuerySchema.extend({
  /** The environment shown: required only for ROOT or a superadmin of several environments. */
  environment: UuidSchema.optional(),
  sortBy: sortBySchema(BROKER_SORT_COLUMNS),
});
export type BrokerOrganizationsQuery = z.input<typeof BrokerOrganizationsQuerySchema>;

export const BrokerOrganizationsExportQuerySchema = exportQuerySchema(BrokerOrganizationsQuerySchema);
export type BrokerOrganizationsExportQuery = z.input<typeof BrokerOrganizationsExportQuerySchema>;

export const BrokerOrganizationSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  avatar: AvatarSchema.nullable(),
  /** Vehicles in the fleet: the vehicles register's active rows (not archived). */
  vehicles: z.number().int(),
  /** Active claims dated from 1 January of this year to today, declared or not. */
  claimsThisYear: z.number().int(),
  /** The current period (the one containing today), null when there is none. */
  period: z.object({ uuid: z.uuid(), startDate: z.iso.date(), endDate: z.iso.date() }).nullable(),
  /** S/P of the current period from its first day to today, in percent, exact; null without period or premium. */
  lossRatio: z.number().nullable(),
  lossRatioLimit: z.number().int(),
  /** Claims of the current period over its vehicles at start, in percent, exact; null without period or vehicle. */
  claimFrequency: z.number().nullable(),
  claimFrequencyLimit: z.number().int(),
  /** Half-difference of the current period in vehicles ((N1 − N0) / 2, N1 counted today); null without period. */
  halfDifference: z.number().nullable(),
  /** Its regularisation in euros (positive: the company owes); null without period or with no vehicle at start. */
  regularisation: z.number().nullable(),
  /** The échéance of the contract in force; null without contract. */
  nextRenewal: z.iso.date().nullable(),
  /** The latest write to the organization's registers (vehicles, drivers, claims, their documents); null if none. */
  lastActivity: z.iso.datetime({ offset: true }).nullable(),
});
export type BrokerOrganization = z.infer<typeof BrokerOrganizationSchema>;

export const BrokerOrganizationPageSchema = pageSchema(BrokerOrganizationSchema).extend({
  environment: z.object({ uuid: z.uuid(), title: z.string() }),
});
export type BrokerOrganizationPage = z.infer<typeof BrokerOrganizationPageSchema>;

export const CreateBrokerOrganizationBodySchema = z.strictObject({
  title: requiredText(MAX_LENGTH.label, "Le nom de l'organisation"),
  /** The environment it joins: required only for ROOT or a superadmin of several environments. */
  environment: UuidSchema.optional(),
  /** Its first ADMIN, invited by e-mail in the same transaction (decision 042); the logo is sent after, as a file. */
  adminEmail: OptionalEmailSchema,
});
export type CreateBrokerOrganizationBody = z.input<typeof CreateBrokerOrganizationBodySchema>;
