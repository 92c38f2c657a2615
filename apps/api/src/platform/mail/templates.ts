import type { z } from 'zod';
import type { MailTemplate } from './render.js';
import { documentExpiry } from './templates/document-expiry.js';
import { organizationInvitation } from './templates/organization-invitation.js';
import { passwordReset } from './templates/password-reset.js';
import { signupConfirmation } from './templates/signup-confirmation.js';
import { vehicleMovement } from './templates/vehicle-movement.js';

/** Every e-mail the product sends, by the name stored in the outbox. */
export const MAIL_TEMPLATES = {
  'password-reset': passwordReset,
  'signup-confirmation': signupConfirmation,
  'organization-invitation': organizationInvitation,
  'vehicle-movement': vehicleMovement,
  'document-expiry': documentExpiry,
} as const;

export type MailTemplates = typeof MAIL_TEMPLATES;
export type MailTemplateName = keyof MailTemplates;
export type MailTemplateData<K extends MailTemplateName> = MailTemplates[K] extends MailTemplate<infer S> ? z.input<S> : never;

export function isMailTemplateName(name: string): name is MailTemplateName {
  return Object.hasOwn(MAIL_TEMPLATES, name);
}
