import { z } from './zod.js';

/** The files a register's view exports to (GET /api/<register>/export). */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportFormatSchema = z.enum(EXPORT_FORMATS, {
  error: (issue) => (issue.input === undefined || issue.input === '' ? 'Le format est obligatoire : csv ou xlsx' : 'Format inconnu : csv ou xlsx'),
});

/**
 * An export's query: the list's own (filters, search, sort; page and limit are ignored: every row
 * of the view is exported) and the file's format.
 */
export function exportQuerySchema<S extends z.ZodObject>(list: S) {
  return list.safeExtend({ format: ExportFormatSchema });
}
