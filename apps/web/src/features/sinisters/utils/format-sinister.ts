import type { Sinister } from '@flotte/contract';
import { formatDate, formatPlate } from '../../../lib/format';

type ResponsibilityRate = Sinister['responsibilityRate'];

/** 0 → '0 %', 100 → '100 %', unknown → '' (the table shows its dash). French: a space before %. */
export function formatResponsibility(rate: ResponsibilityRate | undefined): string {
  return rate === null || rate === undefined ? '' : `${rate}\u00a0%`;
}

/** The guarantees as a select's choices. */
export function guaranteeChoices(guarantees: readonly { uuid: string; label: string }[]) {
  return guarantees.map((guarantee) => ({ value: guarantee.uuid, label: guarantee.label }));
}

export function yesNo(value: boolean): string {
  return value ? 'Oui' : 'Non';
}

export function personName(person: { firstName: string; lastName: string } | null | undefined): string {
  return person ? `${person.firstName} ${person.lastName}` : '';
}

/** 'AB-123-CD · Renault Master': how the fleet manager recognises a vehicle. */
export function vehiculeLabel(
  vehicule: { immatriculation: string | null; brand: string | null; model: string | null } | null | undefined,
): string {
  if (!vehicule) return '';
  const name = [vehicule.brand, vehicule.model].filter(Boolean).join(' ');
  const plate = formatPlate(vehicule.immatriculation);
  return [plate, name].filter(Boolean).join(' · ');
}

/**
 * The claim's name for people (row menu, mobile card, dialog titles): most claims have no number
 * until the insurer gives one, so the plate and the date name it. The plate comes first: a phone
 * wraps the line at the dashes of a plate placed at its end.
 */
export function sinisterLabel(sinister: Pick<Sinister, 'sinisterDate' | 'immatriculation' | 'vehicule'>): string {
  const plate = formatPlate(sinister.vehicule?.immatriculation ?? sinister.immatriculation);
  const date = formatDate(sinister.sinisterDate);
  return plate ? `${plate} · sinistre du ${date}` : `Sinistre du ${date}`;
}

/**
 * The claim inside a sentence: 'sinistre du 14/03/2026 (AB‑123‑CD)'. The plate's dashes are
 * non-breaking (U+2011): a snackbar or a dialog title never splits it over two lines.
 */
export function sinisterPhrase(sinister: Pick<Sinister, 'sinisterDate' | 'immatriculation' | 'vehicule'>): string {
  const plate = formatPlate(sinister.vehicule?.immatriculation ?? sinister.immatriculation).replace(/-/g, '\u2011');
  return `sinistre du ${formatDate(sinister.sinisterDate)}${plate ? ` (${plate})` : ''}`;
}

/** A dialog title: 'Sinistre du 14/03/2026 (AB-123-CD)'. */
export function sinisterTitle(sinister: Pick<Sinister, 'sinisterDate' | 'immatriculation' | 'vehicule'>): string {
  const phrase = sinisterPhrase(sinister);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}
