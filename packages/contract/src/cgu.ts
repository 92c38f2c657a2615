import { z } from './zod.js';

/**
 * The version of the terms of use (CGU) in force: the date of their text
 * (apps/web/src/content/cgu.md says « Version du … » of the same day). Change both together: every
 * user is then asked to accept the new text at their next visit (issue 15).
 */
export const CGU_VERSION = '2026-11-26';

export const AcceptCguBodySchema = z.strictObject(
  {
    version: z.string({ error: 'La version des conditions est obligatoire' }).max(20).refine((version) => version === CGU_VERSION, {
      error: 'Ces conditions ne sont plus les dernières : rechargez la page pour lire la version en vigueur.',
    }),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys.join(', ')}` : undefined) },
);
export type AcceptCguBody = z.infer<typeof AcceptCguBodySchema>;
