import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from './constants.js';
import { z } from './zod.js';

/**
 * The `Idempotency-Key` request header (decision 050): a client names one action with a key of its
 * own (a fresh uuid per user action, the same on an automatic retry); the API runs the action once
 * and answers a retry with the first answer. Printable ASCII only: a header carries nothing else
 * safely, and the key is stored and compared as given.
 */

const KEY_MESSAGE = `La clé d’idempotence (en-tête Idempotency-Key) doit compter de 1 à ${IDEMPOTENCY_KEY_MAX_LENGTH} caractères imprimables (ASCII, sans caractère de contrôle).`;

export const IdempotencyKeySchema = z
  .string({ error: KEY_MESSAGE })
  .min(1, { error: KEY_MESSAGE })
  .max(IDEMPOTENCY_KEY_MAX_LENGTH, { error: KEY_MESSAGE })
  .regex(/^[\x20-\x7e]+$/, { error: KEY_MESSAGE })
  .meta({ description: 'Clé choisie par le client (un uuid par action) : une nouvelle tentative avec la même clé rejoue la première réponse sans rien refaire (24 h).' });

/** The headers of a route that honours an Idempotency-Key (the others pass through). */
export const IdempotencyHeadersSchema = z.looseObject({ [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: IdempotencyKeySchema.optional() });
