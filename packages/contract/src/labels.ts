// What a user reads for a code: shared by the schemas (VehiculeTypeSchema) and the web's screens.
// No zod here (decision 015).
import type { Role } from './constants.js';

/** Vehicle categories of DOMAIN.md: `type` holds the code. */
export const VEHICULE_TYPES = [
  { code: 'VP', label: 'VP (véhicule particulier)' },
  { code: 'VUL', label: 'VUL (utilitaire léger ≤ 3,5 t)' },
  { code: 'PL', label: 'PL (poids lourd > 3,5 t)' },
  { code: 'TRACTEUR', label: 'Tracteur routier' },
  { code: 'AUTOCAR', label: 'Autocar / bus' },
  { code: 'REMORQUE_LEGERE', label: 'Remorque ≤ 3,5 t' },
  { code: 'REMORQUE_LOURDE', label: 'Remorque > 3,5 t' },
  { code: 'SEMI_REMORQUE', label: 'Semi-remorque' },
  { code: 'DEUX_ROUES_125', label: '2-roues ≤ 125 cm³' },
  { code: 'DEUX_ROUES_PLUS', label: '2-roues > 125 cm³' },
  { code: 'ENGIN_CHANTIER', label: 'Engin de chantier / manutention' },
  { code: 'ENGIN_AGRICOLE', label: 'Engin agricole' },
  { code: 'AUTRE', label: 'Autre' },
] as const;
export type VehiculeTypeCode = (typeof VEHICULE_TYPES)[number]['code'];

export function vehiculeTypeLabel(code: string | null | undefined): string {
  return VEHICULE_TYPES.find((t) => t.code === code)?.label ?? '';
}

/** Best role label, in the priority of SPEC section 6. */
export function bestRoleLabel(roles: readonly Role[]): string {
  if (roles.includes('ROOT')) return 'Root';
  if (roles.includes('SUPERADMIN')) return 'Superadmin';
  if (roles.includes('ADMIN')) return 'Administrateur';
  return 'Utilisateur';
}

/** A member's role in one organization (decision 034), as the « Membres » section names it. */
export const MEMBER_ROLE_CHOICES = [
  { value: 'ADMIN', label: 'Administrateur' },
  { value: 'USER', label: 'Utilisateur' },
] as const;

export function memberRoleLabel(role: string): string {
  return MEMBER_ROLE_CHOICES.find((choice) => choice.value === role)?.label ?? role;
}
