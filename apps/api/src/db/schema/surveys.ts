import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { environments } from './environments.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/** A question as stored: its order is its place in the survey's array (decision 038). */
export type StoredSurveyQuestion = {
  uuid: string;
  kind: 'text' | 'single' | 'multiple';
  label: string;
  required: boolean;
  choices: { uuid: string; label: string }[];
};

/** One answer as stored: a text, or the uuids of the choices taken. */
export type StoredSurveyAnswer = { question: string; text?: string; choices?: string[] };

/**
 * A broker's survey: an environment's data, reached in system scope by its superadmins (the
 * service checks the environment), and by a respondent only through their own link (decision 038).
 */
export const surveys = pgTable(
  'surveys',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    environmentUuid: uuid()
      .notNull()
      .references(() => environments.uuid, { onDelete: 'cascade' }),
    title: text().notNull(),
    introduction: text(),
    questions: jsonb().$type<StoredSurveyQuestion[]>().notNull(),
    status: text({ enum: ['draft', 'sent'] })
      .notNull()
      .default('draft'),
    createdByUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('surveys_environment_idx').on(t.environmentUuid, t.createdAt)],
);

/** One person a survey was sent to, in one organization: their link (its SHA-256 only), its expiry and use. */
export const surveyRecipients = pgTable(
  'survey_recipients',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    surveyUuid: uuid()
      .notNull()
      .references(() => surveys.uuid, { onDelete: 'cascade' }),
    /** The organization's title when sent: what the respondent's page shows (their scope cannot read organizations). */
    organizationTitle: text().notNull(),
    audience: text({ enum: ['members', 'drivers'] }).notNull(),
    email: text().notNull(),
    name: text(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    answeredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Sending again to an organization reaches only the people it has not reached yet.
    uniqueIndex('survey_recipients_once_key').on(t.surveyUuid, t.organizationUuid, t.email),
    index('survey_recipients_organization_idx').on(t.organizationUuid),
  ],
);

/** A recipient's answers, written once through their link. */
export const surveyAnswers = pgTable(
  'survey_answers',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    surveyUuid: uuid()
      .notNull()
      .references(() => surveys.uuid, { onDelete: 'cascade' }),
    recipientUuid: uuid()
      .notNull()
      .unique()
      .references(() => surveyRecipients.uuid, { onDelete: 'cascade' }),
    answers: jsonb().$type<StoredSurveyAnswer[]>().notNull(),
    submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('survey_answers_survey_idx').on(t.surveyUuid, t.organizationUuid)],
);
