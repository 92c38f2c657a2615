import { z } from 'zod';
import { button, defineTemplate, note, paragraph, strong } from '../render.js';

/** 60 → « 1 heure », 90 → « 90 minutes ». */
function duration(minutes: number): string {
  if (minutes % 60 !== 0) return `${minutes} minute${minutes > 1 ? 's' : ''}`;
  const hours = minutes / 60;
  return `${hours} heure${hours > 1 ? 's' : ''}`;
}

/** Account recovery (/recover): a link to /recover/password carrying a one-time token. */
export const passwordReset = defineTemplate({
  schema: z.object({
    firstName: z.string().trim().min(1).max(100),
    token: z.string().min(16).max(200),
    expiresInMinutes: z.number().int().min(1).max(24 * 60),
  }),
  render({ firstName, token, expiresInMinutes }, { brand, url }) {
    return {
      subject: `Réinitialisation de votre mot de passe ${brand.name}`,
      heading: 'Réinitialisez votre mot de passe',
      blocks: [
        paragraph(`Bonjour ${firstName},`),
        paragraph(`Vous avez demandé à réinitialiser le mot de passe de votre compte ${brand.name}. Choisissez-en un nouveau avec le bouton ci-dessous.`),
        button('Choisir un nouveau mot de passe', url('/recover/password', { token })),
        paragraph('Ce lien est valable ', strong(duration(expiresInMinutes)), " et ne sert qu'une fois."),
        note("Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé."),
      ],
    };
  },
});
