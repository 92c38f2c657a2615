import type { z } from 'zod';
import type { MailTemplate } from './render.js';
import { alertsDigest } from './templates/alerts-digest.js';
import { documentExpiry } from './templates/document-expiry.js';
import { emailChangeConfirmation, emailChangeNotice, emailChangeTaken } from './templates/email-change.js';
import { organizationInvitation } from './templates/organization-invitation.js';
import { passwordReset } from './templates/password-reset.js';
import { spaceInvitation } from './templates/space-invitation.js';
import { signupConfirmation } from './templates/signup-confirmation.js';
import { signupExistingAccount } from './templates/signup-existing-account.js';
import { surveyInvitation } from './templates/survey-invitation.js';
import { twoFactorReset } from './templates/two-factor-reset.js';
import { vehicleMovement } from './templates/vehicle-movement.js';

/** Every e-mail the product sends, by the name stored in the outbox. */
export const MAIL_TEMPLATES = {
  'password-reset': passwordReset,
  'signup-confirmation': signupConfirmation,
  'signup-existing-account': signupExistingAccount,
  'organization-invitation': organizationInvitation,
  'vehicle-movement': vehicleMovement,
  'document-expiry': documentExpiry,
  'email-change-confirmation': emailChangeConfirmation,
  'email-change-notice': emailChangeNotice,
  'email-change-taken': emailChangeTaken,
  'alerts-digest': alertsDigest,
  'survey-invitation': surveyInvitation,
  'two-factor-reset': twoFactorReset,
  'space-invitation': spaceInvitation,
} as const;

export type MailTemplates = typeof MAIL_TEMPLATES;
export type MailTemplateName = keyof MailTemplates;
export type MailTemplateData<K extends MailTemplateName> = MailTemplates[K] extends MailTemplate<infer S> ? z.input<S> : never;

export function isMailTemplateName(name: string): name is MailTemplateName {
  return Object.hasOwn(MAIL_TEMPLATES, name);
}
