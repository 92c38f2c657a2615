import { z } from 'zod';
import { button, defineTemplate, note, paragraph } from '../render.js';

/**
 * A signup with an address that already has an account (decision 033): the screen answers as for
 * a new one (no enumeration); the owner is told here, with the way back in if it was them.
 */
export const signupExistingAccount = defineTemplate({
  schema: z.object({ firstName: z.string().trim().min(1).max(100) }),
  render({ firstName }, { brand, url }) {
    return {
      subject: `Tentative d'inscription avec votre adresse sur ${brand.name}`,
      heading: 'Vous avez déjà un compte',
      blocks: [
        paragraph(`Bonjour ${firstName},`),
        paragraph(`Quelqu'un vient de demander à créer un compte ${brand.name} avec cette adresse e-mail, qui a déjà un compte : aucun nouveau compte n'a été créé.`),
        paragraph('Si c’était vous et que vous avez oublié votre mot de passe, choisissez-en un nouveau :'),
        button('Retrouver l’accès à mon compte', url('/recover')),
        note("Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre compte et votre mot de passe restent inchangés."),
      ],
    };
  },
});
