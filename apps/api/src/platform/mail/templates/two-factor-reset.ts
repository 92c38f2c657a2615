import { z } from 'zod';
import { button, defineTemplate, note, paragraph, strong } from '../render.js';

/**
 * To a member whose two-factor sign-in was turned off by the broker (the environment's
 * superadmin) or the operator: what happened, that its sessions ended, how to turn it on again.
 */
export const twoFactorReset = defineTemplate({
  schema: z.object({ firstName: z.string().trim().min(1).max(100), by: z.string().trim().min(1).max(210), organization: z.string().trim().min(1).max(200) }),
  render({ firstName, by, organization }, { brand, url }) {
    return {
      subject: `La double authentification de votre compte ${brand.name} a été désactivée`,
      heading: 'Double authentification désactivée',
      blocks: [
        paragraph(`Bonjour ${firstName},`),
        paragraph(strong(by), ` a désactivé la double authentification de votre compte ${brand.name}, à la demande de l’organisation `, strong(organization), '. Vos sessions ouvertes ont été fermées.'),
        paragraph('Vous vous connectez désormais avec votre seul mot de passe. Réactivez la double authentification depuis votre compte, avec votre application d’authentification.'),
        button('Réactiver la double authentification', url('/account')),
        note('Si vous n’avez rien demandé, changez votre mot de passe et prévenez votre courtier sans attendre.'),
      ],
    };
  },
});
