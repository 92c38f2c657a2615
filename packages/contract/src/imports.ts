import { IsoDateSchema, requiredText, UuidSchema } from './primitives.js';
import { z } from './zod.js';

/** Spreadsheet imports (issue 13, SPEC 5): preview → validate → commit, revert, history. */

export const IMPORT_ENTITIES = ['driver', 'vehicule', 'sinister'] as const;
export const ImportEntitySchema = z.enum(IMPORT_ENTITIES, { error: 'Type d’import : driver, vehicule ou sinister' });
export type ImportEntity = z.infer<typeof ImportEntitySchema>;
export const ImportEntityParamsSchema = z.object({ entity: ImportEntitySchema });
export const ImportIdParamsSchema = z.object({ importId: UuidSchema });
/** `?sheet=`: the XLSX sheet to read, by its name (else the first with data). */
export const ImportPreviewQuerySchema = z.object({ sheet: requiredText(100, 'Le nom de la feuille').optional() });

/** upsert: add and update; compare (vehicles only): the file is the whole fleet, the user picks. */
export const ImportModeSchema = z.enum(['upsert', 'compare'], { error: 'Mode : upsert ou compare' });
export type ImportMode = z.infer<typeof ImportModeSchema>;

export type ImportField = { key: string; label: string; required: boolean; requiredInCompare?: boolean };

/** The target fields of each import, in the order the mapping screen shows them (required per SPEC 5). */
export const IMPORT_FIELDS: Record<ImportEntity, readonly ImportField[]> = {
  driver: [
    { key: 'lastName', label: 'Nom', required: true },
    { key: 'firstName', label: 'Prénom', required: true },
    { key: 'phone', label: 'Téléphone', required: true },
    { key: 'email', label: 'E-mail', required: false },
  ],
  vehicule: [
    { key: 'immatriculation', label: 'Immatriculation', required: true, requiredInCompare: true },
    { key: 'brand', label: 'Marque', required: true },
    { key: 'model', label: 'Modèle', required: true },
    { key: 'type', label: 'Catégorie', required: false },
    { key: 'circulationDate', label: 'Date de mise en circulation', required: false },
    { key: 'entryDate', label: "Date d'entrée", required: false },
    { key: 'exitDate', label: 'Date de sortie', required: false },
  ],
  sinister: [
    { key: 'sinisterIntermediateRef', label: 'N° de sinistre', required: true },
    { key: 'sinisterDate', label: 'Date de survenance', required: false },
    { key: 'immatriculation', label: 'Immatriculation du véhicule', required: false },
    { key: 'driver', label: 'Conducteur (prénom et nom)', required: false },
    { key: 'city', label: 'Ville', required: false },
    { key: 'status', label: 'Statut', required: false },
    { key: 'openedAt', label: "Date d'ouverture", required: false },
    { key: 'closedAt', label: 'Date de clôture', required: false },
    { key: 'totalCost', label: 'Coût total', required: false },
    { key: 'paidAmount', label: 'Réglé', required: false },
    { key: 'reserveAmount', label: 'Provision', required: false },
    { key: 'responsibilityRate', label: 'Taux de responsabilité', required: false },
    { key: 'ida', label: 'IDA', required: false },
    { key: 'hasHumanInjury', label: 'Dommages corporels', required: false },
    { key: 'damagedVehicule', label: 'Véhicule endommagé', required: false },
    { key: 'isThirdImplicated', label: 'Tiers impliqué', required: false },
    { key: 'isDeclared', label: 'Déclaré', required: false },
    { key: 'description', label: 'Circonstances', required: false },
  ],
};

export const ImportFieldSchema = z.object({ key: z.string(), label: z.string(), required: z.boolean(), requiredInCompare: z.boolean().optional() });

/**
 * Target field → index of the file's column (0-based, in `headers`), or null for 'Ne pas lier'.
 * A field left out is not linked either.
 */
export const ImportMappingSchema = z.record(
  z.string().max(40, { error: 'Champ inconnu' }),
  z.number({ error: 'Colonne invalide' }).int({ error: 'Colonne invalide' }).min(0, { error: 'Colonne invalide' }).max(9_999, { error: 'Colonne invalide' }).nullable(),
);
export type ImportMapping = z.infer<typeof ImportMappingSchema>;

export const ImportPreviewSchema = z.object({
  importId: z.uuid(),
  entity: ImportEntitySchema,
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  /** CSV only: what was detected. */
  encoding: z.string().nullable(),
  separator: z.string().nullable(),
  /** XLSX only: the workbook's sheets in order (empty for a CSV), and the one read. */
  sheets: z.array(z.string()),
  sheet: z.string().nullable(),
  headers: z.array(z.string()),
  fields: z.array(ImportFieldSchema),
  suggestedMapping: ImportMappingSchema,
  /** Data rows (the header row excluded, blank rows skipped). */
  rowCount: z.number().int(),
  /** The first rows as the file shows them, each with its row number in Excel. */
  sample: z.array(z.object({ line: z.number().int(), cells: z.array(z.string()) })),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const ImportValidateBodySchema = z.strictObject({
  mapping: ImportMappingSchema,
  mode: ImportModeSchema.optional(),
});
export type ImportValidateBody = z.input<typeof ImportValidateBodySchema>;

export const ImportRowErrorSchema = z.object({
  /** The row number as Excel shows it. */
  line: z.number().int(),
  /** The target field (null: the whole row). */
  field: z.string().nullable(),
  /** The file's column header of that field. */
  column: z.string().nullable(),
  message: z.string(),
});

export const ImportChangeSchema = z.object({ field: z.string(), label: z.string(), old: z.string().nullable(), new: z.string().nullable() });

/** A vehicle of compare mode; `immatriculation` as shown (AB-123-CD), `key` normalised (what a selection names). */
export const CompareVehiculeSchema = z.object({
  key: z.string(),
  immatriculation: z.string(),
  uuid: z.uuid().nullable(),
  line: z.number().int().nullable(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  changes: z.array(ImportChangeSchema),
});

export const ImportCountsSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  exited: z.number().int(),
});
export type ImportCounts = z.infer<typeof ImportCountsSchema>;

export const ImportValidationSchema = z.object({
  mode: ImportModeSchema,
  rowCount: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  /** What a commit of every valid row would do (compare mode: if everything were selected). */
  counts: ImportCountsSchema,
  /** Sorted by row; at most 1 000 (errorCount tells how many in all). */
  errors: z.array(ImportRowErrorSchema),
  errorCount: z.number().int(),
  /** Rows accepted with a note (an unusual plate, a vehicle or driver not found for a claim). */
  warnings: z.array(ImportRowErrorSchema),
  compare: z
    .object({
      new: z.array(CompareVehiculeSchema),
      missing: z.array(CompareVehiculeSchema),
      changed: z.array(CompareVehiculeSchema),
    })
    .nullable(),
});
export type ImportValidation = z.infer<typeof ImportValidationSchema>;

export const ImportSelectionSchema = z.strictObject({
  /** Plates (normalised `key`) of the new vehicles to add. */
  new: z.array(z.string().max(20)).max(100_000).optional(),
  /** Plates of the changed vehicles to update. */
  changed: z.array(z.string().max(20)).max(100_000).optional(),
  /** Vehicles of the fleet absent from the file that leave it, each with its exit date. */
  exits: z.array(z.strictObject({ uuid: UuidSchema, exitDate: IsoDateSchema })).max(100_000).optional(),
});
export type ImportSelection = z.infer<typeof ImportSelectionSchema>;

export const ImportCommitBodySchema = z.strictObject({
  mapping: ImportMappingSchema,
  mode: ImportModeSchema.optional(),
  /** Compare mode: exactly what to apply (nothing when absent). */
  selection: ImportSelectionSchema.optional(),
});
export type ImportCommitBody = z.input<typeof ImportCommitBodySchema>;

export const IMPORT_STATUSES = ['previewed', 'queued', 'running', 'committed', 'failed', 'reverted'] as const;
export const ImportStatusSchema = z.enum(IMPORT_STATUSES);

export const ImportSummarySchema = z.object({
  importId: z.uuid(),
  entity: ImportEntitySchema,
  mode: ImportModeSchema.nullable(),
  fileName: z.string(),
  rowCount: z.number().int(),
  status: ImportStatusSchema,
  /** 0–100 while a background commit runs; 100 once committed. */
  percent: z.number().int(),
  counts: ImportCountsSchema.nullable(),
  /** Why a background commit failed (nothing was written). */
  error: z.string().nullable(),
  author: z.object({ uuid: z.uuid().nullable(), name: z.string() }),
  createdAt: z.iso.datetime({ offset: true }),
  committedAt: z.iso.datetime({ offset: true }).nullable(),
  revertedAt: z.iso.datetime({ offset: true }).nullable(),
  /** Until when 'Annuler l'import' is offered (24 h after the commit), null when it is not. */
  revertibleUntil: z.iso.datetime({ offset: true }).nullable(),
});
export type ImportSummary = z.infer<typeof ImportSummarySchema>;
export const ImportListSchema = z.object({ data: z.array(ImportSummarySchema) });

/** A background commit (more than 5 000 rows): follow it with GET /api/import/{importId}. */
export const ImportCommitResultSchema = ImportCountsSchema.extend({ importId: z.uuid(), status: ImportStatusSchema });

export const ImportRevertSchema = z.object({
  restored: z.number().int(),
  /** Rows edited since the import: left as they are. */
  left: z.array(z.object({ entity: ImportEntitySchema, uuid: z.uuid(), label: z.string(), reason: z.string() })),
});
export type ImportRevert = z.infer<typeof ImportRevertSchema>;
