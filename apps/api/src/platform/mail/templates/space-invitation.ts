import { z } from 'zod';
import { button, defineTemplate, note, paragraph, strong } from '../render.js';

/**
 * The first superadmin of a new space (decision 043): with a token, the account was just made and
 * the link chooses its password (/recover/password); without, an existing account signs in.
 */
export const spaceInvitation = defineTemplate({
  schema: z.object({
    firstName: z.string().trim().min(1).max(100),
    inviterName: z.string().trim().min(1).max(200),
    environmentTitle: z.string().trim().min(1).max(200),
    token: z.string().min(16).max(200).nullable(),
    expiresInDays: z.number().int().min(1).max(60),
  }),
  render({ firstName, inviterName, environmentTitle, token, expiresInDays }, { brand, url }) {
    return {
      subject: `Vous êtes superadmin de l’espace ${environmentTitle} sur ${brand.name}`,
      heading: `Bienvenue dans l’espace ${environmentTitle}`,
      blocks: [
        paragraph(`Bonjour ${firstName},`),
        paragraph(
          strong(inviterName),
          ' vous a nommé superadmin de l’espace ',
          strong(environmentTitle),
          ` sur ${brand.name} : vous y créez les organisations de vos clients et suivez leurs flottes.`,
        ),
        ...(token
          ? [
              button('Choisir mon mot de passe', url('/recover/password', { token })),
              paragraph('Ce lien est valable ', strong(`${expiresInDays} jour${expiresInDays > 1 ? 's' : ''}`), " et ne sert qu'une fois."),
            ]
          : [button('Se connecter', url('/')), paragraph('Connectez-vous avec votre compte habituel : l’espace y apparaît déjà.')]),
        note("Vous ne vous attendiez pas à ce message ? Ignorez-le ou répondez-y pour nous prévenir."),
      ],
    };
  },
});
