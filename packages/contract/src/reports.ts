import { REPORT_DESCRIPTION_MAX, REPORT_TITLE_MAX } from './constants.js';
import { requiredText } from './primitives.js';
import { z } from './zod.js';

export const ReportTypeSchema = z.enum(['bug', 'suggestion'], { error: 'Type de signalement invalide' });
export type ReportType = z.infer<typeof ReportTypeSchema>;

export const CreateReportBodySchema = z.strictObject({
  title: requiredText(REPORT_TITLE_MAX, 'Le titre'),
  description: requiredText(REPORT_DESCRIPTION_MAX, 'La description'),
  type: ReportTypeSchema,
});
export type CreateReportBody = z.infer<typeof CreateReportBodySchema>;

export const ReportSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  description: z.string(),
  type: ReportTypeSchema,
  createdAt: z.iso.datetime({ offset: true }),
});
export type Report = z.infer<typeof ReportSchema>;
