import { z } from './zod.js';

/** An amount in euros with at most two decimals, never negative; the API stores it in cents. */
export const EurosSchema = z
  .number({ error: 'Montant invalide' })
  .min(0, { error: 'Le montant ne peut pas être négatif' })
  .max(100_000_000, { error: 'Montant trop élevé' })
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { error: 'Le montant a au plus deux décimales (centimes)' });
