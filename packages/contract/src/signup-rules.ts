// Signup and onboarding's rules and words (decision 033), zod-free: the login page reads its
// messages without a schema library. SIREN and SIRET: the French company (9 digits) and
// establishment (14 digits) numbers, each ending with a Luhn key.

/** Hours a confirmation link stays valid. */
export const SIGNUP_LINK_HOURS = 24;

/** The answer to every signup and every resend, whether the address already had an account or not (no enumeration). */
export const SIGNUP_REQUESTED_MESSAGE =
  'Un e-mail de confirmation vient d’être envoyé à cette adresse. Ouvrez le lien qu’il contient, valable 24 heures, pour activer votre compte.';

/** A confirmation link that expired, was used, or never existed: one message, whatever the case. */
export const SIGNUP_LINK_INVALID_MESSAGE =
  'Ce lien de confirmation est invalide ou a expiré : il ne sert qu’une fois, pendant 24 heures. Demandez-en un nouveau.';

/** The login's answer to the right password of an address not yet confirmed: no session. */
export const EMAIL_NOT_CONFIRMED_MESSAGE =
  'Votre adresse e-mail n’est pas encore confirmée : ouvrez le lien reçu par e-mail à l’inscription, ou demandez-en un nouveau.';

export const CGU_REQUIRED_MESSAGE = 'Acceptez les conditions générales d’utilisation pour créer votre compte';

/** The Luhn checksum: doubling every second digit from the right, the sum is a multiple of 10. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** La Poste's establishments do not follow Luhn: the SIRET's digits sum to a multiple of 5 (INSEE). */
const LA_POSTE_SIREN = '356000000';

/** « 732 829 320 » or « 732.829.320 00074 » → « 73282932000074 »: spaces, dots and dashes dropped. */
export function compactCompanyId(value: string): string {
  return value.replace(/[\s.\u00a0-]/g, '');
}

/** « 732829320 » → « 732 829 320 »; a SIRET « 732 829 320 00074 » (its SIREN, then the establishment's five digits). */
export function formatCompanyId(digits: string): string {
  const siren = digits.slice(0, 9).replace(/(\d{3})(?=\d)/g, '$1 ');
  return digits.length > 9 ? `${siren} ${digits.slice(9)}` : siren;
}

export type CompanyIdCheck = { kind: 'siren' | 'siret'; value: string } | { error: string };

export const COMPANY_ID_MESSAGES = {
  missing: 'Le SIREN ou le SIRET est obligatoire',
  format: 'Le SIREN compte 9 chiffres, le SIRET 14 chiffres',
  sirenKey: 'Ce SIREN est invalide : vérifiez les chiffres (clé de contrôle incorrecte)',
  siretKey: 'Ce SIRET est invalide : vérifiez les chiffres (clé de contrôle incorrecte)',
} as const;

/** A SIREN or SIRET as typed: which one it is and its digits, or the French reason it is refused. */
export function checkCompanyId(input: string): CompanyIdCheck {
  const value = compactCompanyId(input);
  if (value === '') return { error: COMPANY_ID_MESSAGES.missing };
  if (!/^\d+$/.test(value) || (value.length !== 9 && value.length !== 14)) return { error: COMPANY_ID_MESSAGES.format };
  if (value.length === 9) return luhnValid(value) ? { kind: 'siren', value } : { error: COMPANY_ID_MESSAGES.sirenKey };
  const valid = value.startsWith(LA_POSTE_SIREN) && value !== `${LA_POSTE_SIREN}00048`
    ? [...value].reduce((sum, digit) => sum + Number(digit), 0) % 5 === 0
    : luhnValid(value);
  if (!valid) return { error: COMPANY_ID_MESSAGES.siretKey };
  // The SIRET's first nine digits are its company's SIREN, with its own key.
  if (!luhnValid(value.slice(0, 9))) return { error: COMPANY_ID_MESSAGES.siretKey };
  return { kind: 'siret', value };
}

/** The fleet-size brackets offered at the onboarding. */
export const FLEET_SIZES = ['1-9', '10-49', '50-249', '250+'] as const;
export type FleetSize = (typeof FLEET_SIZES)[number];
export const FLEET_SIZE_LABELS: Record<FleetSize, string> = {
  '1-9': '1 à 9 véhicules',
  '10-49': '10 à 49 véhicules',
  '50-249': '50 à 249 véhicules',
  '250+': '250 véhicules et plus',
};

/** The onboarding's steps, in order; 'done' once finished (or never asked). */
export const ONBOARDING_STEPS = ['welcome', 'company', 'members', 'finish'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];
