import { CGU_VERSION } from './constants.js';
import { text } from './primitives.js';
import { z } from './zod.js';


export const AcceptCguBodySchema = z.strictObject(
  {
    version: text({ max: 20, label: 'La version des conditions', missing: 'La version des conditions est obligatoire' }).refine((version) => version === CGU_VERSION, {
      error: 'Ces conditions ne sont plus les dernières : rechargez la page pour lire la version en vigueur.',
    }),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Champ non reconnu : ${issue.keys.join(', ')}` : undefined) },
);
export type AcceptCguBody = z.infer<typeof AcceptCguBodySchema>;
