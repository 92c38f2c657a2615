import { LoginBodySchema, type LoginBody } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { LOGIN_MESSAGES, validateLogin, type LoginErrors } from './login-messages';

/** What the form showed with zodResolver: the first issue of each field. */
function contractErrors(input: LoginBody): LoginErrors {
  const result = LoginBodySchema.safeParse(input);
  const errors: LoginErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof LoginErrors;
    errors[field] ??= issue.message;
  }
  return errors;
}

const EMAILS = [
  '',
  '   ',
  'claire.dupont@demo.fr',
  '  Claire.Dupont@Demo.FR  ',
  'claire',
  'claire@demo',
  'claire@demo.f',
  '.claire@demo.fr',
  'claire.@demo.fr',
  'claire..dupont@demo.fr',
  "o'brien+flotte@demo-assur.fr",
  'claire@-demo.fr',
  'claire dupont@demo.fr',
  'clàire@demo.fr',
  `${'a'.repeat(245)}@demo.fr`,
  `${'a'.repeat(246)}@demo.fr`,
  `  ${'a'.repeat(246)}@demo.fr  `,
  'a'.repeat(300),
  'İ'.repeat(130),
];
const PASSWORDS = ['', ' ', 'Demo1234!', '  espaces  ', 'x'.repeat(200), 'x'.repeat(201), 'a\u0000b', '\uD800', '😀', `${'x'.repeat(201)}\u0000`];

describe('login checks without zod', () => {
  it('answer the contract’s first message for every field, on every input', () => {
    for (const email of EMAILS) {
      for (const password of PASSWORDS) {
        const input = { email, password };
        expect(validateLogin(input).errors, JSON.stringify(input)).toEqual(contractErrors(input));
      }
    }
  });

  it('send what the contract’s schema outputs', () => {
    const input = { email: '  Claire.Dupont@Demo.FR ', password: ' Demo1234! ' };
    expect(validateLogin(input).body).toEqual(LoginBodySchema.parse(input));
    expect(validateLogin({ email: '', password: 'x' }).body).toBeNull();
  });

  it('use each message the contract has for the login body', () => {
    const seen = new Set<string>();
    for (const email of EMAILS) {
      for (const password of PASSWORDS) {
        const errors = contractErrors({ email, password });
        if (errors.email) seen.add(errors.email);
        if (errors.password) seen.add(errors.password);
      }
    }
    expect([...seen].sort()).toEqual(Object.values(LOGIN_MESSAGES).sort());
  });
});
