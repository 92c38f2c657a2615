import { exportQuerySchema } from './exports.js';
import {
  ArchiveCountsSchema,
  pageSchema,
  PaginatedSearchQuerySchema,
  PhoneSchema,
  QueryBooleanSchema,
  sortBySchema,
  registerRecordFields,
} from './common.js';
import { DRIVER_SORT_COLUMNS } from './constants.js';
import { OptionalEmailSchema, personName } from './primitives.js';
import { z } from './zod.js';

export const DriverSchema = z.object({
  uuid: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  /** E.164; shown as 06 12 34 56 78. */
  phone: z.string().nullable(),
  ...registerRecordFields,
});
export type Driver = z.infer<typeof DriverSchema>;

export const ListDriversQuerySchema = PaginatedSearchQuerySchema.extend({
  withArchived: QueryBooleanSchema,
  onlyArchived: QueryBooleanSchema,
  sortBy: sortBySchema(DRIVER_SORT_COLUMNS),
});
export type ListDriversQuery = z.input<typeof ListDriversQuerySchema>;
/** GET /api/driver/export: the list's view as CSV or XLSX. */
export const ExportDriversQuerySchema = exportQuerySchema(ListDriversQuerySchema);

export const DriverPageSchema = pageSchema(DriverSchema).extend(ArchiveCountsSchema.shape);
export type DriverPage = z.infer<typeof DriverPageSchema>;

/** A driver as a form offers it (the claim's driver): the active drivers. */
export const DriverChoiceSchema = z.object({ uuid: z.uuid(), firstName: z.string(), lastName: z.string(), phone: z.string().nullable() });
export type DriverChoice = z.infer<typeof DriverChoiceSchema>;
/** Name, e-mail or phone. Sorted by last name, then first name. */
export const ListDriverChoicesQuerySchema = PaginatedSearchQuerySchema.extend({ sortBy: sortBySchema(['lastName'] as const) });
export const DriverChoicePageSchema = pageSchema(DriverChoiceSchema);

const driverFields = {
  firstName: personName('Le prénom'),
  lastName: personName('Le nom'),
  email: OptionalEmailSchema,
  phone: PhoneSchema,
};

/**
 * A new driver. When an active driver has the same e-mail, or the same names and phone, the API
 * answers 409 naming it (details: `duplicateOf` = its uuid) so the form can ask before creating a
 * second; `force: true` creates it anyway.
 */
export const CreateDriverBodySchema = z.strictObject({ ...driverFields, force: z.boolean({ error: 'force : true ou false' }).optional() });
export type CreateDriverBody = z.input<typeof CreateDriverBodySchema>;

/** The 409 of a creation that matches an existing driver: the detail that carries its uuid. */
export const DUPLICATE_DRIVER_DETAIL = 'duplicateOf';

export const UpdateDriverBodySchema = z.strictObject(driverFields).partial();
export type UpdateDriverBody = z.input<typeof UpdateDriverBodySchema>;
