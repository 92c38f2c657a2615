import { ExportFormatSchema } from './exports.js';
import { integer, optionalText, requiredText, text, UuidSchema } from './primitives.js';
import { z } from './zod.js';

/**
 * Surveys (issue 16, decision 038): a broker (SUPERADMIN of an environment, or ROOT) writes a
 * survey, sends it by e-mail to the members or drivers of chosen organizations, and reads the
 * answers. Each recipient answers once, without signing in, through a personal link
 * /survey/{token} that expires. The token travels to the API in POST bodies, never in URLs.
 */

export const SURVEY_QUESTION_KINDS = ['text', 'single', 'multiple'] as const;
export type SurveyQuestionKind = (typeof SURVEY_QUESTION_KINDS)[number];
export const SURVEY_QUESTION_KIND_LABELS: Record<SurveyQuestionKind, string> = {
  text: 'Texte libre',
  single: 'Choix unique',
  multiple: 'Choix multiple',
};
export const SURVEY_AUDIENCES = ['members', 'drivers'] as const;
export type SurveyAudience = (typeof SURVEY_AUDIENCES)[number];
export const SURVEY_AUDIENCE_LABELS: Record<SurveyAudience, string> = { members: 'Les membres (utilisateurs)', drivers: 'Les conducteurs' };

export const SURVEY_TITLE_MAX = 200;
export const SURVEY_INTRODUCTION_MAX = 2000;
export const SURVEY_QUESTION_MAX = 300;
export const SURVEY_CHOICE_MAX = 200;
export const SURVEY_ANSWER_TEXT_MAX = 2000;
export const SURVEY_QUESTIONS_MAX = 50;
export const SURVEY_CHOICES_MAX = 20;
export const SURVEY_LINK_DEFAULT_DAYS = 30;
export const SURVEY_LINK_MAX_DAYS = 90;
/** A link's token as the e-mail carries it (base64url of 32 random bytes: 43 characters). */
export const SURVEY_TOKEN_MAX = 100;

export const SURVEY_LINK_UNKNOWN_MESSAGE = "Ce lien de questionnaire n'est pas reconnu. Vérifiez qu'il est complet, ou demandez un nouveau lien à votre courtier.";
export const SURVEY_LINK_EXPIRED_MESSAGE = 'Ce lien de questionnaire a expiré : le questionnaire ne reçoit plus de réponses par ce lien.';
export const SURVEY_LINK_USED_MESSAGE = 'Vous avez déjà répondu à ce questionnaire : chaque lien ne sert qu’une fois. Merci de votre participation !';
export const SURVEY_REQUIRED_MESSAGE = 'Cette question est obligatoire';

export const SurveyQuestionKindSchema = z.enum(SURVEY_QUESTION_KINDS, { error: 'Type de question invalide : texte libre, choix unique ou choix multiple' });
export const SurveyAudienceSchema = z.enum(SURVEY_AUDIENCES, { error: 'Destinataires invalides : membres ou conducteurs' });
export const SurveyStatusSchema = z.enum(['draft', 'sent']);
export type SurveyStatus = z.infer<typeof SurveyStatusSchema>;

const ChoiceInputSchema = z.strictObject({
  uuid: UuidSchema.optional(),
  label: requiredText(SURVEY_CHOICE_MAX, 'Le choix'),
});

export const SurveyQuestionInputSchema = z
  .strictObject({
    uuid: UuidSchema.optional(),
    kind: SurveyQuestionKindSchema,
    label: requiredText(SURVEY_QUESTION_MAX, 'La question'),
    required: z.boolean({ error: 'Obligatoire : oui ou non' }).default(false),
    choices: z.array(ChoiceInputSchema, { error: 'Les choix : liste attendue' }).max(SURVEY_CHOICES_MAX, { error: `${SURVEY_CHOICES_MAX} choix au plus` }).default([]),
  })
  .superRefine((question, ctx) => {
    if (question.kind === 'text' && question.choices.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['choices'], message: "Une question à texte libre n'a pas de choix" });
    }
    if (question.kind !== 'text' && question.choices.length < 2) {
      ctx.addIssue({ code: 'custom', path: ['choices'], message: 'Une question à choix en propose au moins deux' });
    }
    const labels = question.choices.map((c) => c.label.toLocaleLowerCase('fr')).filter(Boolean);
    if (new Set(labels).size !== labels.length) ctx.addIssue({ code: 'custom', path: ['choices'], message: 'Deux choix portent le même libellé' });
  });
export type SurveyQuestionInput = z.input<typeof SurveyQuestionInputSchema>;

/** POST /api/survey, PATCH /api/survey/{uuid}: the whole survey (a draft), questions in order. */
export const SurveyBodySchema = z.strictObject({
  title: requiredText(SURVEY_TITLE_MAX, 'Le titre'),
  introduction: optionalText(SURVEY_INTRODUCTION_MAX, "L'introduction"),
  questions: z
    .array(SurveyQuestionInputSchema, { error: 'Les questions : liste attendue' })
    .min(1, { error: 'Ajoutez au moins une question' })
    .max(SURVEY_QUESTIONS_MAX, { error: `${SURVEY_QUESTIONS_MAX} questions au plus` }),
  /** The environment the survey belongs to: needed only by a caller who manages several (ROOT). */
  environment: UuidSchema.optional(),
});
export type SurveyBody = z.input<typeof SurveyBodySchema>;

export const SurveyChoiceSchema = z.object({ uuid: z.uuid(), label: z.string() });
export const SurveyQuestionSchema = z.object({
  uuid: z.uuid(),
  kind: SurveyQuestionKindSchema,
  label: z.string(),
  required: z.boolean(),
  choices: z.array(SurveyChoiceSchema),
});
export type SurveyQuestion = z.infer<typeof SurveyQuestionSchema>;

/** A survey in the broker's list: its state and its response rate. */
export const SurveySummarySchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  status: SurveyStatusSchema,
  questionCount: z.number().int(),
  sent: z.number().int(),
  answered: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  sentAt: z.iso.datetime({ offset: true }).nullable(),
});
export type SurveySummary = z.infer<typeof SurveySummarySchema>;
export const SurveyListSchema = z.object({ data: z.array(SurveySummarySchema) });
export type SurveyList = z.infer<typeof SurveyListSchema>;

export const SurveySchema = SurveySummarySchema.extend({
  environmentUuid: z.uuid(),
  introduction: z.string().nullable(),
  questions: z.array(SurveyQuestionSchema),
});
export type Survey = z.infer<typeof SurveySchema>;

/** GET /api/survey/{uuid}/audience: the environment's organizations, and whom a sending would reach in each. */
export const SurveyAudienceOrganizationSchema = z.object({
  uuid: z.uuid(),
  title: z.string(),
  members: z.number().int(),
  drivers: z.number().int(),
  sent: z.number().int(),
});
export const SurveyAudienceListSchema = z.object({ data: z.array(SurveyAudienceOrganizationSchema) });
export type SurveyAudienceList = z.infer<typeof SurveyAudienceListSchema>;

/** POST /api/survey/{uuid}/send. */
export const SendSurveyBodySchema = z.strictObject({
  organizations: z
    .array(UuidSchema, { error: 'Les organisations : liste attendue' })
    .min(1, { error: 'Choisissez au moins une organisation' })
    .max(1000, { error: '1000 organisations au plus' }),
  audience: SurveyAudienceSchema,
  expiresInDays: integer({ min: 1, max: SURVEY_LINK_MAX_DAYS, label: 'La durée de validité' }).default(SURVEY_LINK_DEFAULT_DAYS),
});
export type SendSurveyBody = z.input<typeof SendSurveyBodySchema>;
export const SendSurveyResultSchema = z.object({
  sent: z.number().int().describe('Liens envoyés par cet envoi'),
  alreadySent: z.number().int().describe('Personnes qui avaient déjà reçu ce questionnaire'),
  withoutEmail: z.number().int().describe("Conducteurs sans adresse e-mail, qui n'ont rien reçu"),
});
export type SendSurveyResult = z.infer<typeof SendSurveyResultSchema>;

export const SurveyResultsQuerySchema = z.object({ organization: UuidSchema.optional() });
export const SurveyExportQuerySchema = SurveyResultsQuerySchema.extend({ format: ExportFormatSchema });

export const SurveyResultsSchema = z.object({
  sent: z.number().int(),
  answered: z.number().int(),
  /** answered / sent in percent, one decimal; null before any sending. */
  responseRate: z.number().nullable(),
  organizations: z.array(z.object({ uuid: z.uuid(), title: z.string(), sent: z.number().int(), answered: z.number().int() })),
  questions: z.array(
    SurveyQuestionSchema.extend({
      /** How many answers gave this question a value. */
      answered: z.number().int(),
      /** Per choice: how many took it, and the share of the question's answers (percent, one decimal). */
      counts: z.array(z.object({ choice: z.uuid(), count: z.number().int(), percent: z.number() })),
      /** The free texts, newest first. */
      texts: z.array(z.object({ text: z.string(), organization: z.string(), submittedAt: z.iso.datetime({ offset: true }) })),
    }),
  ),
});
export type SurveyResults = z.infer<typeof SurveyResultsSchema>;

/** The public calls: the link's token in the body. */
const TokenSchema = text({ max: SURVEY_TOKEN_MAX, label: 'Le lien', missing: 'Le lien est obligatoire' }).min(1, { error: 'Le lien est obligatoire' });
export const SurveyTokenBodySchema = z.strictObject({ token: TokenSchema });

/** POST /api/survey-response/open: what the link shows. An unknown link is a 404. */
export const SurveyOpenResponseSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('open'),
    expiresAt: z.iso.datetime({ offset: true }),
    organization: z.string(),
    survey: z.object({ title: z.string(), introduction: z.string().nullable(), questions: z.array(SurveyQuestionSchema) }),
  }),
  z.object({ state: z.literal('answered'), answeredAt: z.iso.datetime({ offset: true }) }),
  z.object({ state: z.literal('expired'), expiredAt: z.iso.datetime({ offset: true }) }),
]);
export type SurveyOpenResponse = z.infer<typeof SurveyOpenResponseSchema>;

export const SurveyAnswerInputSchema = z.strictObject({
  question: UuidSchema,
  text: text({ max: SURVEY_ANSWER_TEXT_MAX, label: 'La réponse' }).optional(),
  choices: z.array(UuidSchema, { error: 'Les choix : liste attendue' }).max(SURVEY_CHOICES_MAX, { error: `${SURVEY_CHOICES_MAX} choix au plus` }).optional(),
});
export type SurveyAnswerInput = z.infer<typeof SurveyAnswerInputSchema>;

/** POST /api/survey-response: the answers, checked against the questions by the API (required, one choice or several, known choices). */
export const SurveyAnswerBodySchema = z.strictObject({
  token: TokenSchema,
  answers: z.array(SurveyAnswerInputSchema, { error: 'Les réponses : liste attendue' }).max(SURVEY_QUESTIONS_MAX, { error: `${SURVEY_QUESTIONS_MAX} réponses au plus` }),
});
export type SurveyAnswerBody = z.infer<typeof SurveyAnswerBodySchema>;

/** A response rate in percent with one decimal: 2 of 3 → 66.7. */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}


