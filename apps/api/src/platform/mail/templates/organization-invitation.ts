import { z } from 'zod';
import { button, defineTemplate, note, paragraph, strong } from '../render.js';

/** A member invited to an organization (/onboarding/members): a link to create their account. */
export const organizationInvitation = defineTemplate({
  schema: z.object({
    inviterName: z.string().trim().min(1).max(200),
    organizationTitle: z.string().trim().min(1).max(200),
    token: z.string().min(16).max(200),
    expiresInDays: z.number().int().min(1).max(60),
  }),
  render({ inviterName, organizationTitle, token, expiresInDays }, { brand, url }) {
    return {
      subject: `${inviterName} vous invite à rejoindre ${organizationTitle} sur ${brand.name}`,
      heading: `Rejoignez ${organizationTitle}`,
      blocks: [
        paragraph('Bonjour,'),
        paragraph(strong(inviterName), ' vous invite à rejoindre ', strong(organizationTitle), ` sur ${brand.name}, pour suivre ensemble les véhicules, les conducteurs et les sinistres de la flotte.`),
        button("Accepter l'invitation", url('/signup', { invitation: token })),
        paragraph(`Cette invitation est valable ${expiresInDays} jour${expiresInDays > 1 ? 's' : ''}.`),
        note("Vous ne connaissez pas l'expéditeur ? Ignorez ce message : aucun compte ne sera créé."),
      ],
    };
  },
});
