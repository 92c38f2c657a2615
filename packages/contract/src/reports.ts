import { z } from 'zod';

export const REPORT_DESCRIPTION_MAX = 800;
export const ReportTypeSchema = z.enum(['bug', 'suggestion'], { error: 'Type de signalement invalide' });
export type ReportType = z.infer<typeof ReportTypeSchema>;

export const CreateReportBodySchema = z.strictObject({
  title: z
    .string({ error: 'Le titre est obligatoire' })
    .trim()
    .min(1, { error: 'Le titre est obligatoire' })
    .max(150, { error: 'Le titre : 150 caractères maximum' }),
  description: z
    .string({ error: 'La description est obligatoire' })
    .trim()
    .min(1, { error: 'La description est obligatoire' })
    .max(REPORT_DESCRIPTION_MAX, { error: `La description : ${REPORT_DESCRIPTION_MAX} caractères maximum` }),
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
