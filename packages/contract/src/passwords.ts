import { COMMON_PASSWORDS } from './common-passwords.js';
import { MAX_LENGTH } from './constants.js';
import { text } from './primitives.js';

/** A new password's least length: long rather than complicated (OWASP ASVS 6.2). */
export const PASSWORD_MIN_LENGTH = 12;

let common: Set<string> | undefined;

/** Whether a password is one of the common ones shipped with the product (case ignored). */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(COMMON_PASSWORDS);
  return common.has(password.toLowerCase());
}

export type PasswordStrength = Readonly<{
  /** 0: refused (too short, too common); 1 weak; 2 fair; 3 good; 4 excellent. */
  score: 0 | 1 | 2 | 3 | 4;
  label: string;
  /** What would make it better, in French; null when nothing needs saying. */
  hint: string | null;
}>;

/** Bits an attacker trying every string of the password's character classes would need: a rough, honest scale. */
function estimatedBits(password: string): number {
  const chars = [...password];
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/\d/.test(password)) pool += 10;
  if (/[^a-zA-Z\d]/.test(password)) pool += 33;
  // Repeated characters add little: count each distinct one, plus a quarter for its repeats.
  const distinct = new Set(chars).size;
  const effective = distinct + (chars.length - distinct) / 4;
  return effective * Math.log2(Math.max(pool, 2));
}

/** The strength meter of the password fields (signup, recovery, account): a score and its French words. */
export function passwordStrength(password: string): PasswordStrength {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return { score: 0, label: 'Trop court', hint: `Encore ${PASSWORD_MIN_LENGTH - length} caractère${PASSWORD_MIN_LENGTH - length > 1 ? 's' : ''} au moins.` };
  }
  if (isCommonPassword(password)) return { score: 0, label: 'Trop courant', hint: 'Ce mot de passe figure parmi les plus utilisés : choisissez-en un autre.' };
  const bits = estimatedBits(password);
  if (new Set(password).size <= 3 || bits < 50) return { score: 1, label: 'Faible', hint: 'Ajoutez des mots, des chiffres ou des signes variés.' };
  if (bits < 65) return { score: 2, label: 'Moyen', hint: 'Une phrase de quelques mots est plus sûre et facile à retenir.' };
  if (bits < 85) return { score: 3, label: 'Bon', hint: null };
  return { score: 4, label: 'Excellent', hint: null };
}

/** A password being chosen (recovery, signup, change): at least 12 characters, not a common one, not only a repeated character. */
export function newPasswordSchema(label = 'Le nouveau mot de passe') {
  return text({ max: MAX_LENGTH.password, trim: false, label, missing: `${label} est obligatoire` })
    .min(PASSWORD_MIN_LENGTH, { error: `${label} doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères` })
    .max(MAX_LENGTH.password, { error: 'Mot de passe trop long' })
    .refine((value) => !isCommonPassword(value), { error: 'Ce mot de passe figure parmi les plus utilisés : choisissez-en un autre' })
    .refine((value) => new Set(value).size > 3, { error: 'Ce mot de passe répète trop peu de caractères différents' });
}
