import { vehiculeTypeLabel, type Vehicule } from '@flotte/contract';
import { registerTexts } from '../../../components/register/register-texts';
import { formatDate, formatPlate } from '../../../lib/format';

export const VEHICULE_TEXTS = registerTexts({ one: 'véhicule' });

/** The vehicle's name for people: its plate as French users read it (AB-123-CD). */
export function vehiculeName(vehicule: Pick<Vehicule, 'immatriculation'>): string {
  return formatPlate(vehicule.immatriculation) || 'Véhicule sans immatriculation';
}

/** 'VUL (utilitaire léger ≤ 3,5 t)' → 'VUL': the category as said in a sentence. */
export function vehiculeTypeShortLabel(code: string | null | undefined): string {
  return vehiculeTypeLabel(code).replace(/ \(.*\)$/, '');
}

/** A restore clears the exit date archiving set: the restore snackbar says which one went. */
export function restoredDescription(vehicule: Vehicule, restored: Vehicule): string | undefined {
  if (!vehicule.exitDate || restored.exitDate) return undefined;
  return `${VEHICULE_TEXTS.back(vehiculeName(vehicule))} Sa date de sortie (${formatDate(vehicule.exitDate)}) a été effacée.`;
}
