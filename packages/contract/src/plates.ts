/**
 * French registration plates (DOMAIN.md): normalise before validating or comparing; a foreign or
 * unusual plate is accepted with a warning, never "corrected".
 */

/** Upper-case, without spaces, dashes or dots: the key two plates are compared on. */
export function normalizePlate(plate: string): string {
  return plate.toUpperCase().replace(/[\s\-.\u00a0\u202f]/g, '');
}

const SIV = /^([A-HJ-NP-TV-Z]{2})(\d{3})([A-HJ-NP-TV-Z]{2})$/;
const FNI = /^(\d{1,4})([A-HJ-NP-Z]{1,3})(0[1-9]|[1-8]\d|9[0-5]|2A|2B|97[1-6])$/;

export type PlateKind = 'siv' | 'fni' | 'other';
export type PlateCheck = { normalized: string; kind: PlateKind; display: string; warning: string | null };

export function checkPlate(plate: string): PlateCheck {
  const normalized = normalizePlate(plate);
  const siv = SIV.exec(normalized);
  if (siv) {
    const [, left, digits, right] = siv as unknown as [string, string, string, string];
    const display = `${left}-${digits}-${right}`;
    if (digits === '000' || left === 'SS' || right === 'SS') {
      return { normalized, kind: 'other', display, warning: 'Immatriculation inhabituelle : vérifiez-la (SS et 000 ne sont jamais attribués)' };
    }
    if (left === 'WW') return { normalized, kind: 'siv', display, warning: 'Immatriculation temporaire (WW)' };
    return { normalized, kind: 'siv', display, warning: null };
  }
  if (/^W\d/.test(normalized)) {
    return { normalized, kind: 'other', display: normalized, warning: 'Plaque W garage (professionnel de l’automobile)' };
  }
  const fni = FNI.exec(normalized);
  if (fni) {
    const [, digits, letters, department] = fni as unknown as [string, string, string, string];
    return { normalized, kind: 'fni', display: `${digits} ${letters} ${department}`, warning: null };
  }
  return { normalized, kind: 'other', display: normalized, warning: 'Format non français ou inhabituel : vérifiez l’immatriculation' };
}

/** The plate as a French user reads it: AB-123-CD, 123 ABC 45, or as typed (normalised) otherwise. */
export function formatPlate(plate: string | null | undefined): string {
  if (!plate) return '';
  return checkPlate(plate).display;
}
