// The organization's activity log (issue 16, decision 041): what the API answers and the
// « Journal d'activité » of /parameters shows.
import { formatEuros } from './format.js';
import { bestRoleLabel } from './labels.js';
import { formatPlate } from './plates.js';
import { PaginationQuerySchema, pageSchema } from './common.js';
import { isoDate, SearchSchema, UuidSchema } from './primitives.js';
import { z } from './zod.js';
import { SINISTER_STATUS_LABELS, type Role, type SinisterStatus } from './constants.js';

/** The kinds of records the log follows, in the order its filter offers them. */
export const AUDIT_ENTITIES = [
  { value: 'vehicule', label: 'Véhicule' },
  { value: 'driver', label: 'Conducteur' },
  { value: 'sinister', label: 'Sinistre' },
  { value: 'document', label: 'Document' },
  { value: 'insuranceContract', label: "Contrat d'assurance" },
  { value: 'insuranceIntermediary', label: 'Intermédiaire' },
  { value: 'indicator', label: "Période d'assurance" },
  { value: 'dashboardConfig', label: 'Seuils du tableau de bord' },
  { value: 'member', label: 'Membre' },
  { value: 'invitation', label: 'Invitation' },
  { value: 'organization', label: 'Organisation' },
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number]['value'];
const ENTITY_VALUES = AUDIT_ENTITIES.map((e) => e.value) as [AuditEntity, ...AuditEntity[]];

export const AUDIT_ACTION_LABELS = {
  insert: 'Création',
  update: 'Modification',
  archive: 'Archivage',
  restore: 'Restauration',
  delete: 'Suppression',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

export function auditEntityLabel(entity: string): string {
  return AUDIT_ENTITIES.find((e) => e.value === entity)?.label ?? entity;
}

/** The French name of a recorded field (the table's column name); the column itself when unknown. */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  immatriculation: 'Immatriculation',
  brand: 'Marque',
  model: 'Modèle',
  type: 'Catégorie',
  circulation_date: 'Mise en circulation',
  entry_date: 'Entrée',
  exit_date: 'Sortie',
  archived_at: 'Archivé le',
  first_name: 'Prénom',
  last_name: 'Nom',
  email: 'E-mail',
  phone: 'Téléphone',
  vehicule_uuid: 'Véhicule',
  driver_uuid: 'Conducteur',
  guarantee_uuid: 'Garantie',
  sinister_intermediate_ref: 'Référence',
  sinister_date: 'Date du sinistre',
  city: 'Ville',
  ida: 'IDA',
  has_human_injury: 'Blessé(s)',
  damaged_vehicule: 'Véhicule endommagé',
  is_third_implicated: 'Tiers impliqué',
  is_declared: 'Déclaré',
  responsibility_rate: 'Taux de responsabilité',
  status: 'Statut',
  opened_at: 'Ouvert le',
  closed_at: 'Clos le',
  paid_cents: 'Montant réglé',
  reserve_cents: 'Réserve',
  description: 'Description',
  parent_uuid: 'Dossier',
  kind: 'Type',
  name: 'Nom',
  size_bytes: 'Taille (octets)',
  media_type: 'Format',
  author_uuid: 'Auteur',
  deleted_at: 'Mis à la corbeille le',
  expires_on: "Date d'expiration",
  entity_type: 'Rattaché à',
  entity_uuid: 'Fiche rattachée',
  insurer: 'Assureur',
  policy_number: 'Numéro de police',
  start_date: 'Début',
  renewal_date: 'Échéance',
  end_date: 'Fin',
  annual_premium_cents: 'Prime annuelle',
  contact_last_name: 'Nom du contact',
  contact_first_name: 'Prénom du contact',
  production_email: 'E-mail de production',
  motors_count: 'Nombre de véhicules',
  cash_received_cents: 'Primes',
  previous_indicator_uuid: 'Période précédente',
  loss_ratio_percentage: 'Seuil S/P (%)',
  claim_frequency_percentage: 'Seuil de fréquence (%)',
  user_uuid: 'Utilisateur',
  role: 'Rôle',
  invited_by_uuid: 'Invité par',
  expires_at: 'Expire le',
  accepted_at: 'Acceptée le',
  title: 'Nom',
  avatar_url: 'Logo',
  environment_uuid: 'Environnement',
  siren: 'SIREN',
  siret: 'SIRET',
  address: 'Adresse',
  fleet_size: 'Taille de flotte',
};

export function auditFieldLabel(field: string): string {
  return AUDIT_FIELD_LABELS[field] ?? field;
}


const MEMBER_ROLE_LABELS: Record<string, string> = { ADMIN: 'Administrateur', USER: 'Utilisateur' };
const frenchDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/**
 * A recorded value as a French reader reads it: euros for amounts in cents, Oui / Non, dates
 * DD/MM/YYYY, plates AB-123-CD, the labels of codes; null for no value.
 */
export function auditValueText(field: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (field.endsWith('_cents') && typeof value === 'number') return formatEuros(value / 100);
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  if (field === 'immatriculation') return formatPlate(text);
  if (field === 'status') return SINISTER_STATUS_LABELS[text as SinisterStatus] ?? text;
  if (field === 'role') return MEMBER_ROLE_LABELS[text] ?? text;
  if (field === 'responsibility_rate') return `${text} %`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return frenchDate(text);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) return frenchDate(text.slice(0, 10));
  return text;
}

/** The role an entry's author acted with, as the log names it. */
export function auditRoleLabel(role: string): string {
  return bestRoleLabel([role as Role]);
}

export const ListAuditLogQuerySchema = PaginationQuerySchema.extend({
  /** Words of the author's name or e-mail, or of the record's label. */
  search: SearchSchema,
  entity: z.enum(ENTITY_VALUES, { error: 'Type d’élément inconnu' }).optional(),
  /** One author's entries (a user's uuid). */
  actor: UuidSchema.optional(),
  /** One record's entries: its history. */
  record: UuidSchema.optional(),
  /** From this day (included, France). */
  from: isoDate().optional(),
  /** Up to this day (included, France). */
  to: isoDate().optional(),
}).refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'La date de début doit précéder la date de fin', path: ['to'] });
export type ListAuditLogQuery = z.input<typeof ListAuditLogQuerySchema>;

export const AuditChangeSchema = z.object({
  field: z.string(),
  label: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type AuditChange = z.infer<typeof AuditChangeSchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  occurredAt: z.iso.datetime({ offset: true }),
  actor: z.object({ uuid: z.uuid(), name: z.string(), email: z.string(), role: z.string(), roleLabel: z.string() }),
  entity: z.string(),
  entityLabel: z.string(),
  record: z.uuid(),
  /** What names the record (a plate, a name…), as it was. */
  label: z.string().nullable(),
  action: z.enum(['insert', 'update', 'archive', 'restore', 'delete']),
  actionLabel: z.string(),
  /** Field by field, before → after (an insert: after only; a delete: before only). */
  changes: z.array(AuditChangeSchema),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditLogPageSchema = pageSchema(AuditEntrySchema);
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;

/** The authors of an organization's log, for the filter. */
export const AuditActorListSchema = z.object({ data: z.array(z.object({ uuid: z.uuid(), name: z.string(), email: z.string() })) });
export type AuditActorList = z.infer<typeof AuditActorListSchema>;
