import { z } from 'zod';
import { button, defineTemplate, note, paragraph, strong } from '../render.js';

// The e-mail change of /account (decision 036): a link to the new address, a word to the old one,
// and, when the new address already has an account, a word to its owner instead of the link.

const firstName = z.string().trim().min(1).max(100);
const address = z.string().trim().min(3).max(320);

/** To the new address: the link that makes the change, valid `expiresInHours`, once. */
export const emailChangeConfirmation = defineTemplate({
  schema: z.object({ firstName, newEmail: address, token: z.string().min(16).max(200), expiresInHours: z.number().int().min(1).max(72) }),
  render({ firstName, newEmail, token, expiresInHours }, { brand, url }) {
    return {
      subject: `Confirmez votre nouvelle adresse e-mail ${brand.name}`,
      heading: 'Confirmez votre nouvelle adresse',
      blocks: [
        paragraph(`Bonjour ${firstName},`),
        paragraph(`Vous avez demandé que votre compte ${brand.name} utilise désormais l’adresse `, strong(newEmail), '. Confirmez-la avec le bouton ci-dessous : elle servira alors à vous connecter.'),
        button('Confirmer ma nouvelle adresse', url('/account', { emailToken: token })),
        paragraph('Ce lien est valable ', strong(`${expiresInHours} heures`), " et ne sert qu'une fois. Connectez-vous avec votre adresse actuelle s’il vous le demande."),
        note("Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : rien ne change."),
      ],
    };
  },
});

/** To the current address: a change was asked; how to react if it was not the owner. */
export const emailChangeNotice = defineTemplate({
  schema: z.object({ firstName, newEmail: address }),
  render({ firstName, newEmail }, { brand, url }) {
    return {
      subject: `Changement d’adresse e-mail demandé sur votre compte ${brand.name}`,
      heading: 'Changement d’adresse demandé',
      blocks: [
        paragraph(`Bonjour ${firstName},`),
        paragraph(`Un changement de l’adresse e-mail de votre compte ${brand.name} vers `, strong(newEmail), ' vient d’être demandé. Il ne prendra effet que lorsque le lien envoyé à cette adresse sera ouvert.'),
        paragraph('Si c’est vous, vous n’avez rien à faire ici. Sinon, quelqu’un connaît votre mot de passe : changez-le sans attendre, ce qui ferme aussi vos autres sessions.'),
        button('Changer mon mot de passe', url('/recover')),
      ],
    };
  },
});

/** To an address that already has an account, instead of a link: someone tried to take it. */
export const emailChangeTaken = defineTemplate({
  schema: z.object({}),
  render(_data, { brand, url }) {
    return {
      subject: `Votre adresse e-mail a été proposée pour un autre compte ${brand.name}`,
      heading: 'Votre adresse a été proposée pour un autre compte',
      blocks: [
        paragraph('Bonjour,'),
        paragraph(`Quelqu’un a demandé à utiliser cette adresse e-mail pour un autre compte ${brand.name}. Elle est déjà celle de votre compte : rien n’a changé, et votre compte reste le vôtre.`),
        paragraph('Si vous avez oublié votre mot de passe, vous pouvez en choisir un nouveau.'),
        button('Choisir un nouveau mot de passe', url('/recover')),
        note("Si c'est vous qui avez fait cette demande depuis un autre compte, ignorez ce message."),
      ],
    };
  },
});
