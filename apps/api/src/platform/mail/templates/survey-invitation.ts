import { z } from 'zod';
import { button, defineTemplate, note, paragraph, strong } from '../render.js';

/** A survey sent by the broker (decision 038): a personal link to /survey/{token}, one answer, until a date. */
export const surveyInvitation = defineTemplate({
  schema: z.object({
    surveyTitle: z.string().trim().min(1).max(200),
    organizationTitle: z.string().trim().min(1).max(200),
    introduction: z.string().max(2000).nullable(),
    token: z.string().min(16).max(200),
    /** The last day the link works, already written the French way (« 26/12/2026 »). */
    expiresOn: z.string().min(1).max(40),
  }),
  render({ surveyTitle, organizationTitle, introduction, token, expiresOn }, { brand, url }) {
    return {
      subject: `${brand.name} vous pose quelques questions : ${surveyTitle}`,
      heading: surveyTitle,
      blocks: [
        paragraph('Bonjour,'),
        paragraph(strong(brand.name), ' souhaite connaître votre avis, en tant que membre de ', strong(organizationTitle), '.'),
        ...(introduction ? [paragraph(introduction)] : []),
        button('Répondre au questionnaire', url(`/survey/${token}`)),
        paragraph('Ce lien vous est personnel : il ne sert qu’une fois et fonctionne jusqu’au ', strong(expiresOn), ', sans créer de compte.'),
        note('Vous ne connaissez pas cet expéditeur ? Ignorez ce message.'),
      ],
    };
  },
});
