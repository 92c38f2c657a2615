import { VehiculeSchema } from '@flotte/contract';
import { api } from '../../../lib/api-client';

/**
 * POST /api/vehicule/create-empty: a draft with every field null, completed by PATCH
 * (update-vehicule.ts). Drafts stay out of the list and the API purges them after 24 h, so no
 * list to refresh here; the PATCH that completes the draft does it.
 */
export function createEmptyVehicule() {
  return api('/api/vehicule/create-empty', { method: 'POST', schema: import.meta.env.DEV ? VehiculeSchema : undefined });
}
