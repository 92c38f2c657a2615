import { randomBytes, randomUUID } from 'node:crypto';
import { surveyAnswers, surveyRecipients, surveys, type StoredSurveyAnswer, type StoredSurveyQuestion } from '../db/schema/surveys.js';
import type { WriteTx } from '../db/scope.js';
import { hashRefreshToken } from '../lib/tokens.js';

type Organization = { uuid: string; title: string };

/**
 * The demo's survey (decision 038): sent by the broker two weeks ago to the members of both
 * organizations, answered by three of the four, so the results screen has something to show. The
 * links' tokens are thrown away: nobody can answer through them.
 */
export async function seedDemoSurvey(tx: WriteTx, environmentUuid: string, createdByUuid: string, recipients: { organization: Organization; email: string }[]) {
  const choice = (label: string) => ({ uuid: randomUUID(), label });
  const satisfaction = { uuid: randomUUID(), kind: 'single', label: 'Êtes-vous satisfait de l’accompagnement de votre courtier ?', required: true, choices: [choice('Très satisfait'), choice('Satisfait'), choice('Peu satisfait')] } satisfies StoredSurveyQuestion;
  const services = { uuid: randomUUID(), kind: 'multiple', label: 'Quelles fonctions utilisez-vous le plus ?', required: false, choices: [choice('Sinistres'), choice('Tableau de bord'), choice('Documents'), choice('Véhicules')] } satisfies StoredSurveyQuestion;
  const idea = { uuid: randomUUID(), kind: 'text', label: 'Une suggestion pour améliorer la prévention ?', required: false, choices: [] } satisfies StoredSurveyQuestion;
  const sentAt = new Date(Date.now() - 14 * 86_400_000);
  const [survey] = await tx
    .insert(surveys)
    .values({
      environmentUuid,
      createdByUuid,
      title: 'Votre avis sur notre accompagnement 2026',
      introduction: 'Trois questions, deux minutes : vos réponses nous aident à mieux vous accompagner dans la gestion de votre flotte.',
      questions: [satisfaction, services, idea],
      status: 'sent',
      createdAt: new Date(sentAt.getTime() - 86_400_000),
      updatedAt: sentAt,
      sentAt,
    })
    .returning({ uuid: surveys.uuid });
  const answers: StoredSurveyAnswer[][] = [
    [
      { question: satisfaction.uuid, choices: [satisfaction.choices[0]!.uuid] },
      { question: services.uuid, choices: [services.choices[0]!.uuid, services.choices[1]!.uuid] },
      { question: idea.uuid, text: 'Un rappel avant chaque contrôle technique serait précieux.' },
    ],
    [
      { question: satisfaction.uuid, choices: [satisfaction.choices[1]!.uuid] },
      { question: services.uuid, choices: [services.choices[0]!.uuid] },
    ],
    [
      { question: satisfaction.uuid, choices: [satisfaction.choices[0]!.uuid] },
      { question: services.uuid, choices: [services.choices[2]!.uuid, services.choices[3]!.uuid] },
      { question: idea.uuid, text: 'Des fiches de prévention pour les nouveaux conducteurs.' },
    ],
  ];
  for (const [index, recipient] of recipients.entries()) {
    const given = answers[index];
    const answeredAt = given ? new Date(sentAt.getTime() + (index + 1) * 86_400_000) : null;
    const [link] = await tx
      .insert(surveyRecipients)
      .values({
        organizationUuid: recipient.organization.uuid,
        organizationTitle: recipient.organization.title,
        surveyUuid: survey!.uuid,
        audience: 'members',
        email: recipient.email,
        tokenHash: hashRefreshToken(randomBytes(32).toString('base64url')),
        expiresAt: new Date(sentAt.getTime() + 30 * 86_400_000),
        answeredAt,
        createdAt: sentAt,
      })
      .returning({ uuid: surveyRecipients.uuid });
    if (given && answeredAt) {
      await tx.insert(surveyAnswers).values({ organizationUuid: recipient.organization.uuid, surveyUuid: survey!.uuid, recipientUuid: link!.uuid, answers: given, submittedAt: answeredAt });
    }
  }
}
