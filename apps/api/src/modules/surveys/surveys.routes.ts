import {
  SendSurveyBodySchema,
  SendSurveyResultSchema,
  SURVEY_QUESTION_KIND_LABELS,
  SurveyAnswerBodySchema,
  SurveyAudienceListSchema,
  SurveyBodySchema,
  SurveyExportQuerySchema,
  SurveyListSchema,
  SurveyOpenResponseSchema,
  SurveyResultsQuerySchema,
  SurveyResultsSchema,
  SurveySchema,
  SurveyTokenBodySchema,
  todayIso,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExportColumn } from '../../db/list-kit.js';
import { sendExportedFile } from '../../lib/register-export.js';
import { EXPORTED_FILE } from '../../lib/register-routes.js';
import { errorResponses } from '../../lib/route-schemas.js';
import { CONTENT_TYPES, csvStream, exportFileName, xlsxStream } from '../../lib/spreadsheet-export.js';
import { mailBaseUrl } from '../../platform/mail/outbox.js';
import * as service from './surveys.service.js';
import { BROKERS, PUBLIC_ACCESS } from '../../plugins/route-access.js';

export type SurveysRoutesOptions = { publicUrl: string | undefined };

type AnswerRow = Awaited<ReturnType<typeof service.exportRows>>['answers'][number];

/** The broker's calls (SUPERADMIN of the survey's environment, or ROOT): build, send, read, export. */
export const surveysRoutes: FastifyPluginAsyncZod<SurveysRoutesOptions> = async (app, { publicUrl }) => {
  const tags = ['Questionnaires'];
  const statuses = [400, 401, 403, 404] as const;

  app.get(
    '/survey',
    { config: { access: { roles: BROKERS, scope: 'environment' } }, schema: { tags, summary: 'Les questionnaires des espaces du courtier, avec leur taux de réponse', response: { 200: SurveyListSchema, ...errorResponses(401, 403) } } },
    (request) => service.list(app.db, request.ctx),
  );

  app.post(
    '/survey',
    { config: { access: { roles: BROKERS, scope: 'environment' } }, schema: { tags, summary: 'Crée un questionnaire (brouillon)', body: SurveyBodySchema, response: { 201: SurveySchema, ...errorResponses(...statuses) } } },
    async (request, reply) => reply.status(201).send(await service.create(app.db, request.ctx, request.body)),
  );

  app.get(
    '/survey/:uuid',
    { config: { access: { roles: BROKERS, scope: 'environment' } }, schema: { tags, summary: 'Un questionnaire et ses questions', params: UuidParamsSchema, response: { 200: SurveySchema, ...errorResponses(...statuses) } } },
    (request) => service.getOne(app.db, request.ctx, request.params.uuid),
  );

  app.patch(
    '/survey/:uuid',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Modifie un brouillon (titre, introduction, questions dans leur ordre)',
        params: UuidParamsSchema,
        body: SurveyBodySchema,
        response: { 200: SurveySchema, ...errorResponses(...statuses, 409) },
      },
    },
    (request) => service.update(app.db, request.ctx, request.params.uuid, request.body),
  );

  app.delete(
    '/survey/:uuid',
    { config: { access: { roles: BROKERS, scope: 'environment' } }, schema: { tags, summary: 'Supprime un brouillon', params: UuidParamsSchema, response: { 204: z.null(), ...errorResponses(...statuses, 409) } } },
    async (request, reply) => {
      await service.remove(app.db, request.ctx, request.params.uuid);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/survey/:uuid/audience',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: "Les organisations de l'espace, leurs membres et conducteurs joignables, et les liens déjà envoyés",
        params: UuidParamsSchema,
        response: { 200: SurveyAudienceListSchema, ...errorResponses(...statuses) },
      },
    },
    (request) => service.audience(app.db, request.ctx, request.params.uuid),
  );

  app.post(
    '/survey/:uuid/send',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Envoie le questionnaire par e-mail aux membres ou aux conducteurs des organisations choisies',
        description: 'Un lien personnel par personne, à usage unique, valable le nombre de jours choisi (30 par défaut). Une personne qui a déjà reçu le questionnaire dans cette organisation ne le reçoit pas deux fois.',
        params: UuidParamsSchema,
        body: SendSurveyBodySchema,
        response: { 200: SendSurveyResultSchema, ...errorResponses(...statuses) },
      },
    },
    (request) => service.send(app.db, request.ctx, request.params.uuid, request.body, mailBaseUrl(publicUrl, request), app.mail),
  );

  app.get(
    '/survey/:uuid/results',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Les réponses résumées par question (nombres, pourcentages, textes libres), le taux de réponse, par organisation',
        params: UuidParamsSchema,
        querystring: SurveyResultsQuerySchema,
        response: { 200: SurveyResultsSchema, ...errorResponses(...statuses) },
      },
    },
    (request) => service.results(app.db, request.ctx, request.params.uuid, request.query.organization),
  );

  app.get(
    '/survey/:uuid/export',
    {
      config: { access: { roles: BROKERS, scope: 'environment' } },
      schema: {
        tags,
        summary: 'Les réponses en CSV ou XLSX : une ligne par répondant, une colonne par question',
        params: UuidParamsSchema,
        querystring: SurveyExportQuerySchema,
        response: { 200: EXPORTED_FILE, ...errorResponses(...statuses) },
      },
    },
    async (request, reply) => {
      const { survey, answers } = await service.exportRows(app.db, request.ctx, request.params.uuid, request.query.organization);
      const columns: ExportColumn<AnswerRow>[] = [
        { header: 'Organisation', type: 'text', value: (row) => row.organization, width: 28 },
        { header: 'Destinataire', type: 'text', value: (row) => row.email, width: 30 },
        { header: 'Répondu le', type: 'date', value: (row) => todayIso(row.submittedAt) },
        ...survey.questions.map(
          (question): ExportColumn<AnswerRow> => ({
            header: `${question.label} (${SURVEY_QUESTION_KIND_LABELS[question.kind].toLowerCase()})`,
            type: 'text',
            width: 30,
            value(row) {
              const answer = row.answers.find((a) => a.question === question.uuid);
              if (!answer) return null;
              if (answer.text !== undefined) return answer.text;
              return question.choices.filter((c) => answer.choices?.includes(c.uuid)).map((c) => c.label).join(', ');
            },
          }),
        ),
      ];
      async function* batches() {
        if (answers.length > 0) yield answers;
      }
      const format = request.query.format;
      const stream = format === 'csv' ? csvStream(columns, batches()) : xlsxStream(columns, batches(), 'Réponses');
      return sendExportedFile(reply, { fileName: exportFileName(`questionnaire-${slug(survey.title)}`, todayIso(), format), contentType: CONTENT_TYPES[format], stream });
    },
  );
};

/** « Satisfaction 2026 ! » → « satisfaction-2026 »: a file name's part. */
function slug(title: string): string {
  return (
    title
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'reponses'
  );
}

/** The respondent's calls: no session, the link's token in the body (decision 038). */
export const surveyResponseRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Questionnaires'];

  app.post(
    '/survey-response/open',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Ouvre un lien de questionnaire : les questions, ou la raison pour laquelle il ne sert plus (déjà répondu, expiré)',
        description: 'Sans connexion : le jeton du lien reçu par e-mail. 404 pour un lien inconnu.',
        security: [],
        body: SurveyTokenBodySchema,
        response: { 200: SurveyOpenResponseSchema, ...errorResponses(400, 404) },
      },
    },
    (request) => service.open(app.db, request.body.token),
  );

  app.post(
    '/survey-response',
    {
      config: { access: PUBLIC_ACCESS },
      schema: {
        tags,
        summary: 'Enregistre les réponses, une seule fois par lien',
        description: 'Les réponses sont vérifiées contre les questions (obligatoires, choix unique ou multiple, choix connus). 404 pour un lien inconnu, 410 pour un lien déjà utilisé ou expiré.',
        security: [],
        body: SurveyAnswerBodySchema,
        response: { 204: z.null(), ...errorResponses(400, 404, 410) },
      },
    },
    async (request, reply) => {
      await service.answer(app.db, request.body);
      return reply.status(204).send(null);
    },
  );
};
