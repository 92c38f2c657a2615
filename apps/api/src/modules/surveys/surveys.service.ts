import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  percentOf,
  SURVEY_LINK_EXPIRED_MESSAGE,
  SURVEY_LINK_UNKNOWN_MESSAGE,
  SURVEY_LINK_USED_MESSAGE,
  SURVEY_REQUIRED_MESSAGE,
  type SendSurveyBodySchema,
  type SendSurveyResult,
  type Survey,
  type SurveyAnswerBody,
  type SurveyAudienceList,
  type SurveyBodySchema,
  type SurveyList,
  type SurveyOpenResponse,
  type SurveyResults,
  type SurveySummary,
} from '@flotte/contract';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { surveyAnswers, surveys, type StoredSurveyAnswer, type StoredSurveyQuestion } from '../../db/schema/surveys.js';
import { readSystem, withSurveyRespondent, withSystem, type ReadTx } from '../../db/scope.js';
import { BadRequestError, ConflictError, ForbiddenError, GoneError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, isSuperadmin, managesEnvironment } from '../../lib/auth-context.js';
import { hashRefreshToken } from '../../lib/tokens.js';
import type { MailService } from '../../platform/platform-jobs.js';
import * as repo from './surveys.repository.js';

type SurveyRow = NonNullable<Awaited<ReturnType<typeof repo.findSurvey>>>;

/** Only a broker builds, sends and reads surveys: a SUPERADMIN (its environments) or ROOT. */
function requireBroker(ctx: AuthContext) {
  if (!isSuperadmin(ctx) && !isRoot(ctx)) throw new ForbiddenError('Les questionnaires sont réservés au courtier (superadmin) de l’espace');
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function summaryOf(row: SurveyRow): SurveySummary {
  return {
    uuid: row.uuid,
    title: row.title,
    status: row.status,
    questionCount: row.questions.length,
    sent: row.sent,
    answered: row.answered,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    sentAt: iso(row.sentAt),
  };
}

function surveyOf(row: SurveyRow): Survey {
  return { ...summaryOf(row), environmentUuid: row.environmentUuid, introduction: row.introduction, questions: row.questions };
}

/** The survey if the caller manages its environment; 404 otherwise (another broker's survey does not exist for the caller). */
async function loadSurvey(tx: ReadTx, ctx: AuthContext, uuid: string): Promise<SurveyRow> {
  const row = await repo.findSurvey(tx, uuid);
  if (!row || !managesEnvironment(ctx, row.environmentUuid)) throw new NotFoundError('Questionnaire introuvable');
  return row;
}

/** The questions as stored: each question and choice keeps its uuid (a new one gets one), in the order given. */
function storedQuestions(questions: z.output<typeof SurveyBodySchema>['questions']): StoredSurveyQuestion[] {
  const seen = new Set<string>();
  const fresh = (uuid: string | undefined) => {
    const id = uuid && !seen.has(uuid) ? uuid : randomUUID();
    seen.add(id);
    return id;
  };
  return questions.map((q) => ({
    uuid: fresh(q.uuid),
    kind: q.kind,
    label: q.label,
    required: q.required,
    choices: q.kind === 'text' ? [] : q.choices.map((c) => ({ uuid: fresh(c.uuid), label: c.label })),
  }));
}

/** The environment a new survey belongs to: the one named (if the caller manages it), else the caller's only one. */
function environmentFor(ctx: AuthContext, named: string | undefined): string {
  if (named) {
    if (!managesEnvironment(ctx, named)) throw new NotFoundError('Environnement introuvable');
    return named;
  }
  const managed = ctx.environmentUuids.filter((uuid) => managesEnvironment(ctx, uuid));
  if (managed.length !== 1) {
    throw new BadRequestError('Précisez l’espace du questionnaire', [{ path: 'environment', message: 'Précisez l’espace du questionnaire' }]);
  }
  return managed[0]!;
}

/** « 26/12/2026 », Paris time: the last day a link works, as the e-mail says it. */
function frenchDay(date: Date): string {
  return new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);
}

export async function list(db: Database, ctx: AuthContext): Promise<SurveyList> {
  requireBroker(ctx);
  const rows = await readSystem(db, (tx) => repo.listSurveys(tx, isRoot(ctx) ? 'all' : ctx.environmentUuids.filter((uuid) => managesEnvironment(ctx, uuid))));
  return { data: rows.map(summaryOf) };
}

export async function getOne(db: Database, ctx: AuthContext, uuid: string): Promise<Survey> {
  requireBroker(ctx);
  return surveyOf(await readSystem(db, (tx) => loadSurvey(tx, ctx, uuid)));
}

export async function create(db: Database, ctx: AuthContext, body: z.output<typeof SurveyBodySchema>): Promise<Survey> {
  requireBroker(ctx);
  const environmentUuid = environmentFor(ctx, body.environment);
  return withSystem(db, async (tx) => {
    const [row] = await tx
      .insert(surveys)
      .values({ environmentUuid, title: body.title, introduction: body.introduction ?? null, questions: storedQuestions(body.questions), createdByUuid: ctx.userUuid })
      .returning({ uuid: surveys.uuid });
    return surveyOf(await loadSurvey(tx, ctx, row!.uuid));
  });
}

export async function update(db: Database, ctx: AuthContext, uuid: string, body: z.output<typeof SurveyBodySchema>): Promise<Survey> {
  requireBroker(ctx);
  return withSystem(db, async (tx) => {
    const row = await loadSurvey(tx, ctx, uuid);
    if (row.status !== 'draft') throw new ConflictError('Ce questionnaire a été envoyé : il ne se modifie plus. Dupliquez-le pour en préparer une autre version.');
    if (body.environment && body.environment !== row.environmentUuid) {
      throw new BadRequestError("Un questionnaire ne change pas d'espace", [{ path: 'environment', message: "Un questionnaire ne change pas d'espace" }]);
    }
    await tx
      .update(surveys)
      .set({ title: body.title, introduction: body.introduction ?? null, questions: storedQuestions(body.questions), updatedAt: new Date() })
      .where(eq(surveys.uuid, uuid));
    return surveyOf(await loadSurvey(tx, ctx, uuid));
  });
}

export async function remove(db: Database, ctx: AuthContext, uuid: string): Promise<void> {
  requireBroker(ctx);
  await withSystem(db, async (tx) => {
    const row = await loadSurvey(tx, ctx, uuid);
    if (row.status !== 'draft') throw new ConflictError('Ce questionnaire a été envoyé : il est gardé avec ses réponses.');
    await tx.delete(surveys).where(eq(surveys.uuid, uuid));
  });
}

export async function audience(db: Database, ctx: AuthContext, uuid: string): Promise<SurveyAudienceList> {
  requireBroker(ctx);
  return readSystem(db, async (tx) => {
    const survey = await loadSurvey(tx, ctx, uuid);
    const rows = await repo.audienceOf(tx, survey.environmentUuid, survey.uuid);
    return { data: rows.map(({ answered: _answered, ...row }) => row) };
  });
}

/**
 * Sends the survey to the members or drivers of the chosen organizations of its environment:
 * one personal link each (its SHA-256 kept), one e-mail each through the outbox, in one
 * transaction. Someone already sent the survey in that organization is not sent it again.
 */
export async function send(db: Database, ctx: AuthContext, uuid: string, body: z.output<typeof SendSurveyBodySchema>, baseUrl: string, mail: MailService, now = new Date()): Promise<SendSurveyResult> {
  requireBroker(ctx);
  const chosen = [...new Set(body.organizations)];
  return withSystem(db, async (tx) => {
    const survey = await loadSurvey(tx, ctx, uuid);
    const organizations = await repo.audienceOf(tx, survey.environmentUuid, survey.uuid, chosen);
    // An organization of another environment (or none) does not exist for this survey.
    if (organizations.length !== chosen.length) throw new NotFoundError('Organisation introuvable dans l’espace de ce questionnaire');
    const expiresAt = new Date(now.getTime() + body.expiresInDays * 24 * 3600 * 1000);
    const result: SendSurveyResult = { sent: 0, alreadySent: 0, withoutEmail: 0 };
    for (const organization of organizations) {
      const { people, withoutEmail } = await repo.peopleOf(tx, organization.uuid, body.audience);
      result.withoutEmail += withoutEmail;
      const emails = new Set<string>();
      for (const person of people) {
        const email = person.email.trim().toLowerCase();
        if (emails.has(email)) continue;
        emails.add(email);
        const token = randomBytes(32).toString('base64url');
        const inserted = await repo.insertRecipient(tx, {
          organizationUuid: organization.uuid,
          organizationTitle: organization.title,
          surveyUuid: survey.uuid,
          audience: body.audience,
          email,
          name: person.name,
          tokenHash: hashRefreshToken(token),
          expiresAt,
        });
        if (!inserted) {
          result.alreadySent += 1;
          continue;
        }
        await mail.queue(tx, {
          template: 'survey-invitation',
          to: email,
          organizationUuid: organization.uuid,
          baseUrl,
          data: { surveyTitle: survey.title, organizationTitle: organization.title, introduction: survey.introduction, token, expiresOn: frenchDay(expiresAt) },
        });
        result.sent += 1;
      }
    }
    if (result.sent > 0 && survey.status === 'draft') {
      await tx.update(surveys).set({ status: 'sent', sentAt: now, updatedAt: now }).where(eq(surveys.uuid, uuid));
    }
    return result;
  });
}

/** Counts and percentages per choice, free texts listed, per organization when asked; the response rate. */
export async function results(db: Database, ctx: AuthContext, uuid: string, organizationUuid?: string): Promise<SurveyResults> {
  requireBroker(ctx);
  return readSystem(db, async (tx) => {
    const survey = await loadSurvey(tx, ctx, uuid);
    const organizations = (await repo.audienceOf(tx, survey.environmentUuid, survey.uuid)).filter((o) => o.sent > 0 || o.uuid === organizationUuid);
    if (organizationUuid && !organizations.some((o) => o.uuid === organizationUuid)) throw new NotFoundError('Organisation introuvable dans l’espace de ce questionnaire');
    const shown = organizationUuid ? organizations.filter((o) => o.uuid === organizationUuid) : organizations;
    const answers = await repo.answersOf(tx, survey.uuid, organizationUuid);
    const sent = shown.reduce((n, o) => n + o.sent, 0);
    const answered = shown.reduce((n, o) => n + o.answered, 0);
    return {
      sent,
      answered,
      responseRate: sent === 0 ? null : percentOf(answered, sent),
      organizations: organizations.map(({ uuid: id, title, sent: s, answered: a }) => ({ uuid: id, title, sent: s, answered: a })),
      questions: survey.questions.map((question) => {
        const given = answers.flatMap((a) => {
          const answer = a.answers.find((x) => x.question === question.uuid);
          return answer && (answer.text || answer.choices?.length) ? [{ answer, organization: a.organization, submittedAt: a.submittedAt }] : [];
        });
        return {
          ...question,
          answered: given.length,
          counts: question.choices.map((choice) => {
            const count = given.filter((g) => g.answer.choices?.includes(choice.uuid)).length;
            return { choice: choice.uuid, count, percent: percentOf(count, given.length) };
          }),
          texts: question.kind === 'text' ? given.map((g) => ({ text: g.answer.text!, organization: g.organization, submittedAt: g.submittedAt.toISOString() })) : [],
        };
      }),
    };
  });
}

/** The answers as rows for the export: one per respondent, one column per question. */
export async function exportRows(db: Database, ctx: AuthContext, uuid: string, organizationUuid?: string) {
  requireBroker(ctx);
  return readSystem(db, async (tx) => {
    const survey = await loadSurvey(tx, ctx, uuid);
    if (organizationUuid) {
      const [organization] = await repo.audienceOf(tx, survey.environmentUuid, survey.uuid, [organizationUuid]);
      if (!organization) throw new NotFoundError('Organisation introuvable dans l’espace de ce questionnaire');
    }
    const answers = await repo.answersOf(tx, survey.uuid, organizationUuid);
    return { survey, answers };
  });
}

/** The link's token, hashed; the row found is compared with it in constant time (defence in depth: the lookup is by hash). */
async function linkOf(tx: ReadTx, token: string) {
  const hash = hashRefreshToken(token);
  const row = await repo.respondentLink(tx, hash);
  if (!row) return null;
  const left = Buffer.from(row.tokenHash);
  const right = Buffer.from(hash);
  return left.length === right.length && timingSafeEqual(left, right) ? row : null;
}

/** What /survey/{token} shows: the questions while the link works, else why it does not; 404 for a link that does not exist. */
export async function open(db: Database, token: string, now = new Date()): Promise<SurveyOpenResponse> {
  return withSurveyRespondent(db, hashRefreshToken(token), async (tx) => {
    const link = await linkOf(tx, token);
    if (!link) throw new NotFoundError(SURVEY_LINK_UNKNOWN_MESSAGE);
    if (link.answeredAt) return { state: 'answered', answeredAt: link.answeredAt.toISOString() };
    if (link.expiresAt <= now) return { state: 'expired', expiredAt: link.expiresAt.toISOString() };
    return {
      state: 'open',
      expiresAt: link.expiresAt.toISOString(),
      organization: link.organization,
      survey: { title: link.title, introduction: link.introduction, questions: link.questions },
    };
  });
}

/** The answers checked against the questions: each known once, required ones given, one choice or several, known choices. */
function checkedAnswers(questions: StoredSurveyQuestion[], answers: SurveyAnswerBody['answers']): StoredSurveyAnswer[] {
  const details: { path: string; message: string }[] = [];
  const byQuestion = new Map<string, { index: number; answer: SurveyAnswerBody['answers'][number] }>();
  answers.forEach((answer, index) => {
    if (!questions.some((q) => q.uuid === answer.question)) details.push({ path: `answers.${index}.question`, message: 'Question inconnue dans ce questionnaire' });
    else if (byQuestion.has(answer.question)) details.push({ path: `answers.${index}.question`, message: 'Une seule réponse par question' });
    else byQuestion.set(answer.question, { index, answer });
  });
  const stored: StoredSurveyAnswer[] = [];
  questions.forEach((question, position) => {
    const given = byQuestion.get(question.uuid);
    const path = given ? `answers.${given.index}` : `questions.${position}`;
    const text = given?.answer.text?.trim() ?? '';
    const choices = [...new Set(given?.answer.choices ?? [])];
    if (question.kind === 'text') {
      if (choices.length > 0) details.push({ path: `${path}.choices`, message: "Cette question attend un texte, pas un choix" });
      else if (text) stored.push({ question: question.uuid, text });
      else if (question.required) details.push({ path, message: `${SURVEY_REQUIRED_MESSAGE} : « ${question.label} »` });
      return;
    }
    if (text) details.push({ path: `${path}.text`, message: 'Cette question attend un choix, pas un texte' });
    else if (choices.some((c) => !question.choices.some((known) => known.uuid === c))) details.push({ path: `${path}.choices`, message: `Choix inconnu pour « ${question.label} »` });
    else if (question.kind === 'single' && choices.length > 1) details.push({ path: `${path}.choices`, message: `Un seul choix possible pour « ${question.label} »` });
    else if (choices.length > 0) stored.push({ question: question.uuid, choices });
    else if (question.required) details.push({ path, message: `${SURVEY_REQUIRED_MESSAGE} : « ${question.label} »` });
  });
  if (details.length > 0) throw new BadRequestError(`Réponses incomplètes ou invalides : ${details[0]!.message}`, details);
  return stored;
}

/**
 * Records the answers through the link, once: the link is claimed (answered_at set only if it
 * was not, and not expired) and the answers inserted in the same transaction of the respondent's
 * scope. A refusal writes nothing.
 */
export async function answer(db: Database, body: SurveyAnswerBody, now = new Date()): Promise<void> {
  await withSurveyRespondent(db, hashRefreshToken(body.token), async (tx) => {
    const link = await linkOf(tx, body.token);
    if (!link) throw new NotFoundError(SURVEY_LINK_UNKNOWN_MESSAGE);
    if (link.answeredAt) throw new GoneError(SURVEY_LINK_USED_MESSAGE);
    if (link.expiresAt <= now) throw new GoneError(SURVEY_LINK_EXPIRED_MESSAGE);
    const answers = checkedAnswers(link.questions, body.answers);
    if (!(await repo.claimLink(tx, link.uuid, now))) throw new GoneError(SURVEY_LINK_USED_MESSAGE);
    await tx.insert(surveyAnswers).values({ organizationUuid: link.organizationUuid, surveyUuid: link.surveyUuid, recipientUuid: link.uuid, answers, submittedAt: now });
  });
}
