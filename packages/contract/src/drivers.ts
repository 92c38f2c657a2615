import { z } from 'zod';
import {
  ArchiveCountsSchema,
  EmailSchema,
  pageSchema,
  PaginatedSearchQuerySchema,
  PhoneSchema,
  QueryBooleanSchema,
  requiredText,
  sortBySchema,
  registerRecordFields,
} from './common.js';

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

export const DRIVER_SORT_COLUMNS = ['lastName', 'firstName', 'email', 'phone', 'createdAt'] as const;
export type DriverSortColumn = (typeof DRIVER_SORT_COLUMNS)[number];

export const ListDriversQuerySchema = PaginatedSearchQuerySchema.extend({
  withArchived: QueryBooleanSchema,
  onlyArchived: QueryBooleanSchema,
  sortBy: sortBySchema(DRIVER_SORT_COLUMNS),
});
export type ListDriversQuery = z.input<typeof ListDriversQuerySchema>;

export const DriverPageSchema = pageSchema(DriverSchema).extend(ArchiveCountsSchema.shape);
export type DriverPage = z.infer<typeof DriverPageSchema>;

export const CreateDriverBodySchema = z.strictObject({
  firstName: requiredText(100, 'Le prénom'),
  lastName: requiredText(100, 'Le nom'),
  email: z
    .union([z.literal(''), EmailSchema])
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  phone: PhoneSchema,
});
export type CreateDriverBody = z.input<typeof CreateDriverBodySchema>;

export const UpdateDriverBodySchema = CreateDriverBodySchema.partial();
export type UpdateDriverBody = z.input<typeof UpdateDriverBodySchema>;
