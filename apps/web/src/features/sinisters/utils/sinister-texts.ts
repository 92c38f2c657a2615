import { registerTexts } from '../../../components/register/register-texts';

/** A claim is declared and recorded rather than added. */
export const SINISTER_TEXTS = {
  ...registerTexts({ one: 'sinistre' }),
  add: 'Déclarer un sinistre',
  create: 'Enregistrer le sinistre',
  created: 'Sinistre enregistré',
};
