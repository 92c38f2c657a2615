import { text } from './primitives.js';
import { z } from './zod.js';

/**
 * The version of the terms of use (CGU) in force: the date of their text
 * (apps/web/src/content/cgu.md says « Version du … » of the same day). Change both together: every
 * user is then asked to accept the new text at their next visit (issue 15).
 */
export const CGU_VERSION = '2026-11-26';

export const AcceptCguBodySchema = z.strictObject(
  {
    version: text({ max: 20, label: 'La version des conditions', missing: 'La version des conditions est obligatoire' }).refine((version) => version === CGU_VERSION, {
      error: 'Ces conditions ne sont plus les dernières : rechargez la page pour lire la version en vigueur.',
    }),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys.join(', ')}` : undefined) },
);
export type AcceptCguBody = z.infer<typeof AcceptCguBodySchema>;
