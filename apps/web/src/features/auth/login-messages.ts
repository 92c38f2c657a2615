// The login form's checks without zod: the login page's cold load carries no schema library
// (issue 10). Same rules and same French messages as the contract's LoginBodySchema (EmailSchema
// and text() in packages/contract/src/primitives.ts); login-messages.test.ts compares the two on
// the same inputs, so they cannot drift apart.

import { isSafeText, MAX_LENGTH, UNSAFE_TEXT_MESSAGE, type LoginBody } from '@flotte/contract';

export const LOGIN_MESSAGES = {
  emailMissing: "L'adresse e-mail est obligatoire",
  emailTooLong: `Adresse e-mail : ${MAX_LENGTH.email} caractères maximum`,
  emailInvalid: 'Adresse e-mail invalide',
  passwordMissing: 'Le mot de passe est obligatoire',
  passwordTooLong: `Le mot de passe : ${MAX_LENGTH.password} caractères maximum`,
  passwordUnsafe: `Le mot de passe : ${UNSAFE_TEXT_MESSAGE}`,
} as const;

/** zod 4's default e-mail pattern (z.email()). */
const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export type LoginField = keyof LoginBody;
export type LoginErrors = Partial<Record<LoginField, string>>;

export function emailError(value: string): string | undefined {
  const email = value.trim().toLowerCase();
  if (email.length === 0) return LOGIN_MESSAGES.emailMissing;
  if (email.length > MAX_LENGTH.email) return LOGIN_MESSAGES.emailTooLong;
  if (!EMAIL_PATTERN.test(email)) return LOGIN_MESSAGES.emailInvalid;
  return undefined;
}

/** The password is sent as typed: spaces are part of it. */
export function passwordError(password: string): string | undefined {
  if (password.length > MAX_LENGTH.password) return LOGIN_MESSAGES.passwordTooLong;
  if (!isSafeText(password)) return LOGIN_MESSAGES.passwordUnsafe;
  if (password.length === 0) return LOGIN_MESSAGES.passwordMissing;
  return undefined;
}

/**
 * The first error of each field, as the form showed it with zodResolver; when there is none, the
 * body to send (e-mail trimmed and lower-cased, like the schema's output).
 */
export function validateLogin(input: LoginBody): { errors: LoginErrors; body: LoginBody | null } {
  const errors: LoginErrors = {};
  const email = emailError(input.email);
  const password = passwordError(input.password);
  if (email) errors.email = email;
  if (password) errors.password = password;
  const valid = !email && !password;
  return { errors, body: valid ? { email: input.email.trim().toLowerCase(), password: input.password } : null };
}
