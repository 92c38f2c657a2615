import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SURVEY_LINK_EXPIRED_MESSAGE, SURVEY_LINK_UNKNOWN_MESSAGE, SURVEY_LINK_USED_MESSAGE, type Survey } from '@flotte/contract';
import { expectInvalid, openEnvironments, type EnvironmentFixtures, UNKNOWN_UUID } from '../../../test/fixtures/environments.js';
import { deliveringTo, startTestSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';
import type { TestContext } from '../../../test/test-app.js';
import { until } from '../../../test/until.js';
import { mailOutbox } from '../../db/schema/mail.js';
import { surveyAnswers, surveyRecipients, surveys } from '../../db/schema/surveys.js';
import { withSurveyRespondent, withTenant } from '../../db/scope.js';
import { hashRefreshToken } from '../../lib/tokens.js';
import { createDrivers } from '../../seed/factories.js';

/**
 * Surveys (issue 16, decision 038): the broker builds, sends (e-mails through the outbox and a
 * real SMTP server), reads and exports; each recipient answers once through a personal link
 * without signing in, in a scope that reaches only their own link.
 */
let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'super-b', 'admin-a', 'user-a', 'user-b'], deliveringTo(smtp)));
  await t.seed((tx) =>
    createDrivers(tx, f.orgA1.uuid, [
      { firstName: 'Paul', lastName: 'Conduit', email: 'paul.conduit@exemple.fr' },
      { firstName: 'Sans', lastName: 'Adresse' },
    ]),
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

type Who = 'root' | 'super-a' | 'super-b' | 'admin-a' | 'user-a' | 'user-b';
const call = async (who: Who | null, options: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object }) => {
  const response = who ? await t.as(tokens[who]!, options) : await t.app.inject(options);
  expect(response.statusCode, response.body).toBeLessThan(500);
  return response;
};
/** Every survey row, link and answer: equal before and after means nothing was written. */
const fingerprint = () =>
  t.seed(async (tx) => {
    const result = await tx.execute(
      sql`select (select coalesce(md5(string_agg(s::text, '|' order by s.uuid)), '') from surveys s) || (select coalesce(md5(string_agg(r::text, '|' order by r.uuid)), '') from survey_recipients r) || (select coalesce(md5(string_agg(a::text, '|' order by a.uuid)), '') from survey_answers a) || (select count(*)::text from mail_outbox) as digest`,
    );
    return (result as unknown as { rows: { digest: string }[] }).rows[0]!.digest;
  });

const BODY = {
  title: 'Satisfaction 2026',
  introduction: 'Trois questions sur notre accompagnement.',
  questions: [
    { kind: 'single', label: 'Êtes-vous satisfait de votre courtier ?', required: true, choices: [{ label: 'Oui' }, { label: 'Non' }] },
    { kind: 'multiple', label: 'Quels services utilisez-vous ?', required: false, choices: [{ label: 'Sinistres' }, { label: 'Documents' }, { label: 'Tableau de bord' }] },
    { kind: 'text', label: 'Une suggestion ?', required: false },
  ],
};

async function createSurvey(who: Who = 'super-a', body: object = BODY): Promise<Survey> {
  const response = await call(who, { method: 'POST', url: '/api/survey', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Survey>();
}

const open = (token: string) => call(null, { method: 'POST', url: '/api/survey-response/open', payload: { token } });
const answer = (token: string, answers: object[]) => call(null, { method: 'POST', url: '/api/survey-response', payload: { token, answers } });

/** A link written straight into the database (the e-mail path is tested once, below). */
async function seedLink(survey: Survey, organizationUuid: string, options: { expiresAt?: Date; email?: string } = {}) {
  const token = `jeton-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
  await t.seed(async (tx) => {
    await tx.update(surveys).set({ status: 'sent', sentAt: new Date() }).where(eq(surveys.uuid, survey.uuid));
    await tx.insert(surveyRecipients).values({
      organizationUuid,
      organizationTitle: 'Étoile du Nord',
      surveyUuid: survey.uuid,
      audience: 'members',
      email: options.email ?? `${token}@exemple.fr`,
      tokenHash: hashRefreshToken(token),
      expiresAt: options.expiresAt ?? new Date(Date.now() + 86_400_000),
    });
  });
  return token;
}

function goodAnswers(survey: Survey, { single = 0, multiple = [0, 2], text = 'Plus de webinaires' }: { single?: number; multiple?: number[]; text?: string } = {}) {
  const [q1, q2, q3] = survey.questions;
  return [
    { question: q1!.uuid, choices: [q1!.choices[single]!.uuid] },
    { question: q2!.uuid, choices: multiple.map((i) => q2!.choices[i]!.uuid) },
    { question: q3!.uuid, text },
  ];
}

describe('building a survey', () => {
  it('a superadmin creates a draft with its questions in order; each question and choice gets its uuid', async () => {
    const survey = await createSurvey();
    expect(survey).toMatchObject({ title: 'Satisfaction 2026', status: 'draft', environmentUuid: f.envA.uuid, sent: 0, answered: 0, sentAt: null, questionCount: 3 });
    expect(survey.questions.map((q) => [q.kind, q.label, q.required, q.choices.length])).toEqual([
      ['single', 'Êtes-vous satisfait de votre courtier ?', true, 2],
      ['multiple', 'Quels services utilisez-vous ?', false, 3],
      ['text', 'Une suggestion ?', false, 0],
    ]);
    const list = await call('super-a', { method: 'GET', url: '/api/survey' });
    expect(list.json().data.map((s: { uuid: string }) => s.uuid)).toContain(survey.uuid);
    // Another broker does not see it.
    const other = await call('super-b', { method: 'GET', url: '/api/survey' });
    expect(other.json().data.map((s: { uuid: string }) => s.uuid)).not.toContain(survey.uuid);
  });

  it('edits a draft: moved questions keep their uuids in the new order', async () => {
    const survey = await createSurvey();
    const moved = [survey.questions[2]!, survey.questions[0]!, survey.questions[1]!].map((q) => ({ ...q, choices: q.choices }));
    const response = await call('super-a', { method: 'PATCH', url: `/api/survey/${survey.uuid}`, payload: { title: 'Satisfaction (v2)', introduction: '', questions: moved } });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json<Survey>();
    expect(updated.title).toBe('Satisfaction (v2)');
    expect(updated.introduction).toBeNull();
    expect(updated.questions.map((q) => q.uuid)).toEqual(moved.map((q) => q.uuid));
    expect(updated.questions[1]!.choices.map((c) => c.uuid)).toEqual(survey.questions[0]!.choices.map((c) => c.uuid));
  });

  it('refuses bad input in French and writes nothing', async () => {
    const before = await fingerprint();
    expectInvalid(await call('super-a', { method: 'POST', url: '/api/survey', payload: { ...BODY, title: '  ' } }), 'title', 'Le titre est obligatoire');
    expectInvalid(await call('super-a', { method: 'POST', url: '/api/survey', payload: { ...BODY, questions: [] } }), 'questions', 'Ajoutez au moins une question');
    expectInvalid(
      await call('super-a', { method: 'POST', url: '/api/survey', payload: { ...BODY, questions: [{ kind: 'single', label: 'Seul choix', choices: [{ label: 'Oui' }] }] } }),
      'questions.0.choices',
      'au moins deux',
    );
    expectInvalid(
      await call('super-a', { method: 'POST', url: '/api/survey', payload: { ...BODY, questions: [{ kind: 'text', label: 'Texte', choices: [{ label: 'Oui' }, { label: 'Non' }] }] } }),
      'questions.0.choices',
      "n'a pas de choix",
    );
    expectInvalid(await call('super-a', { method: 'POST', url: '/api/survey', payload: { ...BODY, questions: [{ kind: 'note', label: 'x' }] } }), 'questions.0.kind', 'Type de question invalide');
    expectInvalid(await call('super-a', { method: 'POST', url: '/api/survey', payload: { ...BODY, questions: [{ kind: 'text', label: '' }] } }), 'questions.0.label', 'La question est obligatoire');
    expect(await fingerprint()).toBe(before);
  });

  it('ROOT names the environment; a broker naming another environment gets 404', async () => {
    const root = await createSurvey('root', { ...BODY, environment: f.envB.uuid });
    expect(root.environmentUuid).toBe(f.envB.uuid);
    const without = await call('root', { method: 'POST', url: '/api/survey', payload: BODY });
    expect(without.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Précisez l’espace du questionnaire', details: [{ path: 'environment', message: 'Précisez l’espace du questionnaire' }] });
    expect((await call('super-a', { method: 'POST', url: '/api/survey', payload: { ...BODY, environment: f.envB.uuid } })).statusCode).toBe(404);
  });

  it('plain users and ADMINs cannot build, send or read (403); without a session 401; nothing written', async () => {
    const survey = await createSurvey();
    const before = await fingerprint();
    for (const who of ['admin-a', 'user-a'] as const) {
      const calls = [
        await call(who, { method: 'GET', url: '/api/survey' }),
        await call(who, { method: 'POST', url: '/api/survey', payload: BODY }),
        await call(who, { method: 'GET', url: `/api/survey/${survey.uuid}` }),
        await call(who, { method: 'PATCH', url: `/api/survey/${survey.uuid}`, payload: BODY }),
        await call(who, { method: 'DELETE', url: `/api/survey/${survey.uuid}` }),
        await call(who, { method: 'GET', url: `/api/survey/${survey.uuid}/audience` }),
        await call(who, { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [f.orgA1.uuid], audience: 'members' } }),
        await call(who, { method: 'GET', url: `/api/survey/${survey.uuid}/results` }),
        await call(who, { method: 'GET', url: `/api/survey/${survey.uuid}/export?format=csv` }),
      ];
      for (const response of calls) {
        expect(response.statusCode, `${who} ${response.body}`).toBe(403);
        expect(response.json().message).toBe('Les questionnaires sont réservés au courtier (superadmin) de l’espace');
      }
    }
    expect((await call(null, { method: 'GET', url: '/api/survey' })).statusCode).toBe(401);
    expect((await call(null, { method: 'POST', url: '/api/survey', payload: BODY })).statusCode).toBe(401);
    expect(await fingerprint()).toBe(before);
  });

  it("another environment's broker gets 404 for every call on the survey, and writes nothing", async () => {
    const survey = await createSurvey();
    const before = await fingerprint();
    const calls = [
      await call('super-b', { method: 'GET', url: `/api/survey/${survey.uuid}` }),
      await call('super-b', { method: 'PATCH', url: `/api/survey/${survey.uuid}`, payload: BODY }),
      await call('super-b', { method: 'DELETE', url: `/api/survey/${survey.uuid}` }),
      await call('super-b', { method: 'GET', url: `/api/survey/${survey.uuid}/audience` }),
      await call('super-b', { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [f.orgB1.uuid], audience: 'members' } }),
      await call('super-b', { method: 'GET', url: `/api/survey/${survey.uuid}/results` }),
      await call('super-b', { method: 'GET', url: `/api/survey/${survey.uuid}/export?format=xlsx` }),
      await call('super-a', { method: 'GET', url: `/api/survey/${UNKNOWN_UUID}` }),
    ];
    for (const response of calls) expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Questionnaire introuvable' });
    expect(await fingerprint()).toBe(before);
  });

  it('deletes a draft, not a sent survey', async () => {
    const draft = await createSurvey();
    expect((await call('super-a', { method: 'DELETE', url: `/api/survey/${draft.uuid}` })).statusCode).toBe(204);
    expect((await call('super-a', { method: 'GET', url: `/api/survey/${draft.uuid}` })).statusCode).toBe(404);
    const sent = await createSurvey();
    await seedLink(sent, f.orgA1.uuid);
    expect((await call('super-a', { method: 'DELETE', url: `/api/survey/${sent.uuid}` })).statusCode).toBe(409);
    const edit = await call('super-a', { method: 'PATCH', url: `/api/survey/${sent.uuid}`, payload: BODY });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toMatch(/^Ce questionnaire a été envoyé/);
  });
});

describe('sending', () => {
  it('e-mails a personal link to every member of the chosen organization, received by a real SMTP server; the link opens the survey without signing in', async () => {
    const survey = await createSurvey();
    const audience = await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}/audience` });
    expect(audience.json().data).toEqual([
      { uuid: f.orgA1.uuid, title: 'Étoile du Nord', members: 2, drivers: 1, sent: 0 },
      { uuid: f.orgA2.uuid, title: 'Transports Alpha', members: 2, drivers: 0, sent: 0 },
    ]);
    const sent = await call('super-a', { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [f.orgA1.uuid], audience: 'members', expiresInDays: 14 } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ sent: 2, alreadySent: 0, withoutEmail: 0 });
    const links = await t.seed((tx) => tx.select().from(surveyRecipients).where(eq(surveyRecipients.surveyUuid, survey.uuid)));
    expect(links.map((l) => l.email).sort()).toEqual(['admin-a@exemple.fr', 'user-a@exemple.fr']);
    expect(links[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
    expect(links[0]!.expiresAt.getTime() - Date.now()).toBeLessThan(14.1 * 86_400_000);

    const received = () => smtp.received.filter((m) => m.envelopeTo.includes('user-a@exemple.fr') && m.parsed.subject?.includes('Satisfaction 2026'));
    await until(() => received().length === 1, 75_000);
    const mail = received()[0]!.parsed;
    expect(mail.subject).toBe('Cabinet Horizon vous pose quelques questions : Satisfaction 2026');
    expect(mail.text).toContain('Étoile du Nord');
    expect(mail.text).toContain('Trois questions sur notre accompagnement.');
    const token = /https:\/\/flotte\.exemple\.fr\/survey\/([\w-]+)/.exec(mail.text ?? '')?.[1];
    expect(token).toBeDefined();
    // Only its hash is stored.
    expect(links.some((l) => l.tokenHash === hashRefreshToken(token!))).toBe(true);
    expect(links.every((l) => !l.tokenHash.includes(token!))).toBe(true);

    const opened = await open(token!);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ state: 'open', organization: 'Étoile du Nord', survey: { title: 'Satisfaction 2026', questions: survey.questions } });

    // Sent again to the same organization: nobody gets a second link; the survey is now sent and frozen.
    const again = await call('super-a', { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [f.orgA1.uuid], audience: 'members' } });
    expect(again.json()).toEqual({ sent: 0, alreadySent: 2, withoutEmail: 0 });
    const read = await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}` });
    expect(read.json()).toMatchObject({ status: 'sent', sent: 2, answered: 0 });
  }, 90_000);

  it('sends to drivers with an e-mail, counting those without; the mails belong to the organization', async () => {
    const survey = await createSurvey();
    const sent = await call('super-a', { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [f.orgA1.uuid, f.orgA2.uuid], audience: 'drivers' } });
    expect(sent.json()).toEqual({ sent: 1, alreadySent: 0, withoutEmail: 1 });
    const [mail] = await t.seed((tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'paul.conduit@exemple.fr')));
    expect(mail!.organizationUuid).toBe(f.orgA1.uuid);
    expect(mail!.template).toBe('survey-invitation');
    const [link] = await t.seed((tx) => tx.select().from(surveyRecipients).where(eq(surveyRecipients.surveyUuid, survey.uuid)));
    // 30 days by default.
    expect(Math.round((link!.expiresAt.getTime() - Date.now()) / 86_400_000)).toBe(30);
  });

  it('refuses an organization of another environment (404) or bad input (French 400), writing nothing', async () => {
    const survey = await createSurvey();
    const before = await fingerprint();
    const foreign = await call('super-a', { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [f.orgA1.uuid, f.orgB1.uuid], audience: 'members' } });
    expect(foreign.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Organisation introuvable dans l’espace de ce questionnaire' });
    expectInvalid(await call('super-a', { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [], audience: 'members' } }), 'organizations', 'Choisissez au moins une organisation');
    expectInvalid(await call('super-a', { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [f.orgA1.uuid], audience: 'tous' } }), 'audience', 'Destinataires invalides');
    expectInvalid(
      await call('super-a', { method: 'POST', url: `/api/survey/${survey.uuid}/send`, payload: { organizations: [f.orgA1.uuid], audience: 'members', expiresInDays: 365 } }),
      'expiresInDays',
      'ne peut pas dépasser 90',
    );
    expect(await fingerprint()).toBe(before);
  });
});

describe('answering through the link', () => {
  it('records valid answers once; the link then says it was used', async () => {
    const survey = await createSurvey();
    const token = await seedLink(survey, f.orgA1.uuid);
    expect((await answer(token, goodAnswers(survey))).statusCode).toBe(204);
    const [stored] = await t.seed((tx) => tx.select().from(surveyAnswers).where(eq(surveyAnswers.surveyUuid, survey.uuid)));
    expect(stored!.organizationUuid).toBe(f.orgA1.uuid);
    expect(stored!.answers).toHaveLength(3);

    const before = await fingerprint();
    const reused = await answer(token, goodAnswers(survey));
    expect(reused.json()).toEqual({ statusCode: 410, error: 'Gone', message: SURVEY_LINK_USED_MESSAGE });
    expect((await open(token)).json()).toMatchObject({ state: 'answered' });
    expect(await fingerprint()).toBe(before);
  });

  it('an expired link says so and takes no answer; an unknown link is a 404', async () => {
    const survey = await createSurvey();
    const token = await seedLink(survey, f.orgA1.uuid, { expiresAt: new Date(Date.now() - 1000) });
    const before = await fingerprint();
    expect((await open(token)).json()).toMatchObject({ state: 'expired' });
    expect((await answer(token, goodAnswers(survey))).json()).toEqual({ statusCode: 410, error: 'Gone', message: SURVEY_LINK_EXPIRED_MESSAGE });
    expect((await open('jeton-inconnu-de-la-base-0123456789')).json()).toEqual({ statusCode: 404, error: 'Not Found', message: SURVEY_LINK_UNKNOWN_MESSAGE });
    expect((await answer('jeton-inconnu-de-la-base-0123456789', goodAnswers(survey))).statusCode).toBe(404);
    expectInvalid(await open(''), 'token', 'Le lien est obligatoire');
    expect(await fingerprint()).toBe(before);
  });

  it('checks the answers against the questions: required, one choice or several, known choices and questions; nothing written on a refusal', async () => {
    const survey = await createSurvey();
    const token = await seedLink(survey, f.orgA1.uuid);
    const [q1, q2, q3] = survey.questions;
    const before = await fingerprint();
    const refused = async (answers: object[], path: string, message: string) => {
      const response = await answer(token, answers);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
      expect(response.json().message).toMatch(/^Réponses incomplètes ou invalides/);
    };
    await refused([{ question: q3!.uuid, text: 'Rien' }], 'questions.0', 'Cette question est obligatoire : « Êtes-vous satisfait de votre courtier ? »');
    await refused([{ question: q1!.uuid, choices: q1!.choices.map((c) => c.uuid) }], 'answers.0.choices', 'Un seul choix possible');
    await refused([{ question: q1!.uuid, choices: [UNKNOWN_UUID] }], 'answers.0.choices', 'Choix inconnu');
    await refused([{ question: q1!.uuid, choices: [q2!.choices[0]!.uuid] }], 'answers.0.choices', 'Choix inconnu');
    await refused([...goodAnswers(survey), { question: UNKNOWN_UUID, text: 'x' }], 'answers.3.question', 'Question inconnue');
    await refused([{ question: q1!.uuid, text: 'Oui' }], 'answers.0.text', 'attend un choix');
    await refused([goodAnswers(survey)[0]!, { question: q3!.uuid, choices: [q1!.choices[0]!.uuid] }], 'answers.1.choices', 'attend un texte');
    await refused([goodAnswers(survey)[0]!, goodAnswers(survey)[0]!], 'answers.1.question', 'Une seule réponse par question');
    expectInvalid(await answer(token, [{ question: q3!.uuid, text: 'a\u0000b' }]), 'answers.0.text', 'caractère');
    expect(await fingerprint()).toBe(before);
    // Optional questions may stay empty.
    expect((await answer(token, [goodAnswers(survey)[0]!, { question: q3!.uuid, text: '   ' }])).statusCode).toBe(204);
  });

  it("runs in a scope that reaches only the link's own row, its survey, and its own answers", async () => {
    const survey = await createSurvey();
    const other = await createSurvey();
    const token = await seedLink(survey, f.orgA1.uuid);
    await seedLink(other, f.orgA1.uuid);
    await seedLink(survey, f.orgA2.uuid);
    const seen = await withSurveyRespondent(t.database.db, hashRefreshToken(token), async (tx) => ({
      recipients: await tx.select({ uuid: surveyRecipients.uuid, tokenHash: surveyRecipients.tokenHash }).from(surveyRecipients),
      surveys: await tx.select({ uuid: surveys.uuid }).from(surveys),
      answers: await tx.select({ uuid: surveyAnswers.uuid }).from(surveyAnswers),
      organizations: (await tx.execute(sql`select count(*)::int as n from organizations`)) as unknown as { rows: { n: number }[] },
      drivers: (await tx.execute(sql`select count(*)::int as n from drivers`)) as unknown as { rows: { n: number }[] },
      mail: (await tx.execute(sql`select count(*)::int as n from mail_outbox`)) as unknown as { rows: { n: number }[] },
    }));
    expect(seen.recipients).toEqual([{ uuid: expect.any(String), tokenHash: hashRefreshToken(token) }]);
    expect(seen.surveys).toEqual([{ uuid: survey.uuid }]);
    expect(seen.answers).toEqual([]);
    expect(seen.organizations.rows[0]!.n).toBe(0);
    expect(seen.drivers.rows[0]!.n).toBe(0);
    expect(seen.mail.rows[0]!.n).toBe(0);
    // It cannot write answers for another link, nor change another link.
    const [foreign] = await t.seed((tx) => tx.select().from(surveyRecipients).where(eq(surveyRecipients.surveyUuid, other.uuid)));
    const refused = await withSurveyRespondent(t.database.db, hashRefreshToken(token), (tx) =>
      tx.insert(surveyAnswers).values({ organizationUuid: foreign!.organizationUuid, surveyUuid: other.uuid, recipientUuid: foreign!.uuid, answers: [] }),
    ).then(
      () => 'written',
      (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
    );
    expect(refused).toMatch(/row-level security/);
    const changed = await withSurveyRespondent(t.database.db, hashRefreshToken(token), (tx) =>
      tx.update(surveyRecipients).set({ answeredAt: new Date() }).where(eq(surveyRecipients.uuid, foreign!.uuid)).returning(),
    );
    expect(changed).toEqual([]);
    // An organization's own scope sees its links and answers, but no survey (the broker's data).
    const tenant = await withTenant(t.database.db, f.orgA2.uuid, async (tx) => ({
      surveys: await tx.select({ uuid: surveys.uuid }).from(surveys),
      recipients: await tx.select({ org: surveyRecipients.organizationUuid }).from(surveyRecipients),
    }));
    expect(tenant.surveys).toEqual([]);
    expect(new Set(tenant.recipients.map((r) => r.org))).toEqual(new Set([f.orgA2.uuid]));
  });
});

describe('results and export', () => {
  it('summarises per question with counts, percentages and free texts, per organization, with the response rate', async () => {
    const survey = await createSurvey();
    const a1 = await seedLink(survey, f.orgA1.uuid);
    const a2 = await seedLink(survey, f.orgA1.uuid);
    await seedLink(survey, f.orgA1.uuid);
    const b = await seedLink(survey, f.orgA2.uuid);
    expect((await answer(a1, goodAnswers(survey, { single: 0, multiple: [0, 1], text: '=Plus de webinaires' }))).statusCode).toBe(204);
    expect((await answer(a2, goodAnswers(survey, { single: 1, multiple: [0] }))).statusCode).toBe(204);
    expect((await answer(b, [goodAnswers(survey)[0]!])).statusCode).toBe(204);

    const all = (await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}/results` })).json();
    expect(all).toMatchObject({ sent: 4, answered: 3, responseRate: 75 });
    expect(all.organizations).toEqual([
      { uuid: f.orgA1.uuid, title: 'Étoile du Nord', sent: 3, answered: 2 },
      { uuid: f.orgA2.uuid, title: 'Transports Alpha', sent: 1, answered: 1 },
    ]);
    const [q1, q2, q3] = all.questions;
    expect(q1.answered).toBe(3);
    expect(q1.counts.map((c: { count: number; percent: number }) => [c.count, c.percent])).toEqual([
      [2, 66.7],
      [1, 33.3],
    ]);
    expect(q2.answered).toBe(2);
    expect(q2.counts.map((c: { count: number }) => c.count)).toEqual([2, 1, 0]);
    expect(q3.texts.map((x: { text: string; organization: string }) => [x.text, x.organization])).toEqual([
      ['Plus de webinaires', 'Étoile du Nord'],
      ['=Plus de webinaires', 'Étoile du Nord'],
    ]);

    const one = (await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}/results?organization=${f.orgA2.uuid}` })).json();
    expect(one).toMatchObject({ sent: 1, answered: 1, responseRate: 100 });
    expect(one.questions[0].answered).toBe(1);
    const foreign = await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}/results?organization=${f.orgB1.uuid}` });
    expect(foreign.statusCode).toBe(404);
    expect((await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}/export?format=csv&organization=${f.orgB1.uuid}` })).statusCode).toBe(404);

    const csv = await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}/export?format=csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toContain('questionnaire-satisfaction-2026');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Organisation;Destinataire;Répondu le;Êtes-vous satisfait de votre courtier ? (choix unique);Quels services utilisez-vous ? (choix multiple);Une suggestion ? (texte libre)');
    expect(lines).toHaveLength(4);
    // A formula typed by a respondent is neutralised.
    expect(lines.some((l) => l.includes(";Oui;Sinistres, Documents;'=Plus de webinaires"))).toBe(true);
    const xlsx = await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}/export?format=xlsx&organization=${f.orgA2.uuid}` });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toMatch(/spreadsheetml/);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expectInvalid(await call('super-a', { method: 'GET', url: `/api/survey/${survey.uuid}/export?format=pdf` }), 'format', 'Format inconnu');
  });
});
