import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { drivers } from '../../db/schema/drivers.js';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { surveyAnswers, surveyRecipients, surveys } from '../../db/schema/surveys.js';
import { users } from '../../db/schema/users.js';
import type { ReadTx, WriteTx } from '../../db/scope.js';

const sentCount = sql<number>`(select count(*)::int from survey_recipients r where r.survey_uuid = "surveys"."uuid")`;
const answeredCount = sql<number>`(select count(*)::int from survey_recipients r where r.survey_uuid = "surveys"."uuid" and r.answered_at is not null)`;

export const surveyColumns = {
  uuid: surveys.uuid,
  environmentUuid: surveys.environmentUuid,
  title: surveys.title,
  introduction: surveys.introduction,
  questions: surveys.questions,
  status: surveys.status,
  createdAt: surveys.createdAt,
  updatedAt: surveys.updatedAt,
  sentAt: surveys.sentAt,
  sent: sentCount,
  answered: answeredCount,
};

/** The surveys of these environments ('all': ROOT), newest first. */
export function listSurveys(tx: ReadTx, environmentUuids: readonly string[] | 'all') {
  const where = environmentUuids === 'all' ? undefined : environmentUuids.length === 0 ? sql`false` : inArray(surveys.environmentUuid, [...environmentUuids]);
  return tx.select(surveyColumns).from(surveys).where(where).orderBy(desc(surveys.createdAt), surveys.uuid);
}

export async function findSurvey(tx: ReadTx, uuid: string) {
  const [row] = await tx.select(surveyColumns).from(surveys).where(eq(surveys.uuid, uuid)).limit(1);
  return row ?? null;
}

/** The organizations of an environment with how many members and drivers (with an e-mail) each has, and how many links it was sent. */
export function audienceOf(tx: ReadTx, environmentUuid: string, surveyUuid: string, only?: readonly string[]) {
  const filters: SQL[] = [eq(organizations.environmentUuid, environmentUuid)];
  if (only) filters.push(only.length === 0 ? sql`false` : inArray(organizations.uuid, [...only]));
  return tx
    .select({
      uuid: organizations.uuid,
      title: organizations.title,
      members: sql<number>`(select count(*)::int from organization_users ou where ou.organization_uuid = "organizations"."uuid")`,
      drivers: sql<number>`(select count(*)::int from drivers d where d.organization_uuid = "organizations"."uuid" and d.archived_at is null and d.email is not null)`,
      sent: sql<number>`(select count(*)::int from survey_recipients r where r.organization_uuid = "organizations"."uuid" and r.survey_uuid = ${surveyUuid})`,
      answered: sql<number>`(select count(*)::int from survey_recipients r where r.organization_uuid = "organizations"."uuid" and r.survey_uuid = ${surveyUuid} and r.answered_at is not null)`,
    })
    .from(organizations)
    .where(and(...filters))
    .orderBy(organizations.title, organizations.uuid)
    .then((rows) => rows.sort((a, b) => a.title.localeCompare(b.title, 'fr')));
}

/** Whom a sending to one organization reaches: its members, or its active drivers (those without an e-mail counted apart). */
export async function peopleOf(tx: ReadTx, organizationUuid: string, audience: 'members' | 'drivers') {
  if (audience === 'members') {
    const rows = await tx
      .select({ email: users.email, name: sql<string>`${users.firstName} || ' ' || ${users.lastName}` })
      .from(organizationUsers)
      .innerJoin(users, eq(users.uuid, organizationUsers.userUuid))
      .where(eq(organizationUsers.organizationUuid, organizationUuid));
    return { people: rows, withoutEmail: 0 };
  }
  const rows = await tx
    .select({ email: drivers.email, name: sql<string>`${drivers.firstName} || ' ' || ${drivers.lastName}` })
    .from(drivers)
    .where(and(eq(drivers.organizationUuid, organizationUuid), isNull(drivers.archivedAt)));
  return {
    people: rows.filter((r): r is { email: string; name: string } => r.email !== null),
    withoutEmail: rows.filter((r) => r.email === null).length,
  };
}

/** Inserts the link unless this person of this organization already has one for the survey; true when inserted. */
export async function insertRecipient(tx: WriteTx, values: typeof surveyRecipients.$inferInsert): Promise<boolean> {
  const rows = await tx.insert(surveyRecipients).values(values).onConflictDoNothing().returning({ uuid: surveyRecipients.uuid });
  return rows.length === 1;
}

/** Every answer of a survey (one organization's, or all), with its organization's title, newest first. */
export function answersOf(tx: ReadTx, surveyUuid: string, organizationUuid?: string) {
  return tx
    .select({
      answers: surveyAnswers.answers,
      submittedAt: surveyAnswers.submittedAt,
      organization: organizations.title,
      email: surveyRecipients.email,
      audience: surveyRecipients.audience,
    })
    .from(surveyAnswers)
    .innerJoin(organizations, eq(organizations.uuid, surveyAnswers.organizationUuid))
    .innerJoin(surveyRecipients, eq(surveyRecipients.uuid, surveyAnswers.recipientUuid))
    .where(and(eq(surveyAnswers.surveyUuid, surveyUuid), organizationUuid ? eq(surveyAnswers.organizationUuid, organizationUuid) : undefined))
    .orderBy(desc(surveyAnswers.submittedAt), surveyAnswers.uuid);
}

/**
 * The link of this hash, as the respondent's scope sees it (row-level security shows no other
 * row): the recipient, its organization's title and the survey's questions.
 */
export async function respondentLink(tx: ReadTx, tokenHash: string) {
  const [row] = await tx
    .select({
      uuid: surveyRecipients.uuid,
      tokenHash: surveyRecipients.tokenHash,
      organizationUuid: surveyRecipients.organizationUuid,
      surveyUuid: surveyRecipients.surveyUuid,
      expiresAt: surveyRecipients.expiresAt,
      answeredAt: surveyRecipients.answeredAt,
      organization: surveyRecipients.organizationTitle,
      title: surveys.title,
      introduction: surveys.introduction,
      questions: surveys.questions,
    })
    .from(surveyRecipients)
    .innerJoin(surveys, eq(surveys.uuid, surveyRecipients.surveyUuid))
    .where(eq(surveyRecipients.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** Spends the link: only if nobody answered through it first (of two racing answers, one wins). */
export async function claimLink(tx: WriteTx, recipientUuid: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(surveyRecipients)
    .set({ answeredAt: at })
    .where(and(eq(surveyRecipients.uuid, recipientUuid), isNull(surveyRecipients.answeredAt), sql`${surveyRecipients.expiresAt} > ${at}`))
    .returning({ uuid: surveyRecipients.uuid });
  return rows.length === 1;
}

