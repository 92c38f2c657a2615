import { PaginationQuerySchema, pageSchema, QueryBooleanSchema } from './common.js';
import { DOCUMENT_NAME_MAX, documentNameIssue } from './document-names.js';
import { isoDate, queryInteger, SearchSchema, UuidSchema } from './primitives.js';
import { z } from './zod.js';

/**
 * The document management (GED, issue 14; SPEC 3 « Document/folder: uuid, folderName, parent,
 * media (with name) », SPEC 7 « Documents »): folders and files in one tree per organization.
 */

export const DOCUMENT_KINDS = ['folder', 'file'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Days a deleted document stays in the trash before it is purged. */
export const DOCUMENT_TRASH_DAYS = 30;

/** A folder or file name typed by a user: refused (never silently changed) when unusable. */
export const DocumentNameSchema = z
  .string({ error: 'Le nom est obligatoire' })
  .max(DOCUMENT_NAME_MAX * 2, { error: `Le nom : ${DOCUMENT_NAME_MAX} caractères maximum` })
  .superRefine((value, ctx) => {
    const issue = documentNameIssue(value);
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  })
  .transform((value) => value.trim().normalize('NFC'));

const ParentSchema = UuidSchema.nullable().optional();

export const DocumentAuthorSchema = z.object({ uuid: z.uuid(), firstName: z.string(), lastName: z.string() });

export const DocumentSchema = z.object({
  uuid: z.uuid(),
  kind: z.enum(DOCUMENT_KINDS),
  /** A folder's name; null for a file (its name is media.name). */
  folderName: z.string().nullable(),
  /** The folder holding it; null at the root ('Mes documents'). */
  parent: z.uuid().nullable(),
  /** A file's stored bytes: its name; null for a folder. */
  media: z.object({ name: z.string() }).nullable(),
  /** Bytes of a file; null for a folder. */
  size: z.number().int().nullable(),
  /** The media type read from a file's bytes (application/pdf, image/jpeg…); null for a folder. */
  type: z.string().nullable(),
  author: DocumentAuthorSchema.nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  expiresOn: z.iso.date().nullable(),
  /** In the trash since then; null otherwise. */
  deletedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type DocumentItem = z.infer<typeof DocumentSchema>;

export const DocumentPageSchema = pageSchema(DocumentSchema);
export type DocumentPage = z.infer<typeof DocumentPageSchema>;

export const CreateFolderBodySchema = z.object({
  folderName: DocumentNameSchema,
  parent: ParentSchema,
});
export type CreateFolderBody = z.input<typeof CreateFolderBodySchema>;

/** `GET /api/document/ged/paginated`: a folder's content (root without parent); search: the whole tree. */
export const GedQuerySchema = PaginationQuerySchema.extend({
  search: SearchSchema,
  parent: UuidSchema.optional(),
});
export type GedQuery = z.input<typeof GedQuerySchema>;

export const AncestorsParamsSchema = z.object({ parent: UuidSchema });
export const DocumentFolderRefSchema = z.object({ uuid: z.uuid(), folderName: z.string(), parent: z.uuid().nullable() });
/** From the root's first folder down to the folder asked for (included); the breadcrumb adds 'Mes documents'. */
export const AncestorsSchema = z.array(DocumentFolderRefSchema);

export const UploadQuerySchema = z.object({ parent: UuidSchema.optional() });
export const UploadResultSchema = z.object({ data: z.array(DocumentSchema) });

/** Rename (name), move (parent: a folder, or null for the root), expiry date; each optional. */
export const UpdateDocumentBodySchema = z
  .object({
    name: DocumentNameSchema.optional(),
    parent: ParentSchema,
    expiresOn: isoDate().nullable().optional(),
  })
  .refine((body) => body.name !== undefined || body.parent !== undefined || body.expiresOn !== undefined, { error: 'Rien à modifier : indiquez name, parent ou expiresOn' });
export type UpdateDocumentBody = z.input<typeof UpdateDocumentBodySchema>;

export const DeleteDocumentQuerySchema = z.object({
  /** A folder that is not empty goes to the trash only with its content, when asked explicitly. */
  recursive: QueryBooleanSchema,
});

export const TrashQuerySchema = PaginationQuerySchema;

/** Documents expiring within this many days are shown to the user ahead (a green card, a licence…). */
export const DOCUMENT_EXPIRY_NOTICE_DAYS = 30;

/** `GET /api/document/expiring`: live documents whose expiry date is past or within `days`, soonest first. */
export const ExpiringQuerySchema = PaginationQuerySchema.extend({
  days: queryInteger({ min: 0, max: 366, label: 'Le nombre de jours' }).default(DOCUMENT_EXPIRY_NOTICE_DAYS),
});

// ---------------------------------------------------------------- media library (/media, issue 14)

/** The media library's kinds of file: images (JPEG, PNG, WebP, HEIC), PDF, and everything else. */
export const MEDIA_KINDS = ['image', 'pdf', 'other'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** The records a file can be attached to, and `none`: a file of the GED attached to nothing. */
export const MEDIA_ENTITIES = ['driver', 'vehicule', 'sinister', 'none'] as const;
export type MediaEntityFilter = (typeof MEDIA_ENTITIES)[number];

/** `GET /api/document/media`: every live file of the organization, newest first, whatever its folder. */
export const MediaQuerySchema = PaginationQuerySchema.extend({
  kind: z.enum(MEDIA_KINDS, { error: 'Le type de fichier : image, pdf ou other' }).optional(),
  entity: z.enum(MEDIA_ENTITIES, { error: 'Le rattachement : driver, vehicule, sinister ou none' }).optional(),
  search: SearchSchema,
});
export type MediaQuery = z.input<typeof MediaQuerySchema>;

/**
 * The record a file is attached to. `label`: the driver's « Nom Prénom », the vehicle's plate, the
 * claim's reference (else its date, JJ/MM/AAAA); null when the record no longer exists.
 */
export const MediaEntitySchema = z.object({
  type: z.enum(['driver', 'vehicule', 'sinister']),
  uuid: z.uuid(),
  label: z.string().nullable(),
});
export type MediaEntity = z.infer<typeof MediaEntitySchema>;

export const MediaItemSchema = DocumentSchema.extend({ entity: MediaEntitySchema.nullable() });
export type MediaItem = z.infer<typeof MediaItemSchema>;

export const MediaPageSchema = pageSchema(MediaItemSchema);
export type MediaPage = z.infer<typeof MediaPageSchema>;

/** The longest side of a thumbnail (`GET /api/document/{uuid}/thumbnail`), in pixels. */
export const THUMBNAIL_SIZE = 320;
