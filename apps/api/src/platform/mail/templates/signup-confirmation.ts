import { z } from 'zod';
import { button, defineTemplate, note, paragraph, strong } from '../render.js';

/** A new account's address is confirmed through /signup/confirmation before its first sign-in. */
export const signupConfirmation = defineTemplate({
  schema: z.object({
    firstName: z.string().trim().min(1).max(100),
    token: z.string().min(16).max(200),
    expiresInHours: z.number().int().min(1).max(24 * 7),
  }),
  render({ firstName, token, expiresInHours }, { brand, url }) {
    return {
      subject: `Confirmez votre adresse e-mail pour ${brand.name}`,
      heading: 'Confirmez votre adresse e-mail',
      blocks: [
        paragraph(`Bonjour ${firstName},`),
        paragraph(`Bienvenue sur ${brand.name} ! Pour activer votre compte, confirmez que cette adresse est bien la vôtre.`),
        button('Confirmer mon adresse', url('/signup/confirmation', { token })),
        paragraph('Ce lien est valable ', strong(`${expiresInHours} heure${expiresInHours > 1 ? 's' : ''}`), '.'),
        note("Vous n'avez pas créé de compte ? Ignorez ce message : sans confirmation, le compte ne sera pas activé."),
      ],
    };
  },
});
