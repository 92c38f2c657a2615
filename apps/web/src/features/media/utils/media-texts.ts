import type { MediaEntity, MediaEntityFilter, MediaKind } from '@flotte/contract';

// Every word of the media library (/media, issue 14).

export const MEDIA_TEXTS = {
  title: 'Médiathèque',
  back: 'Gestion documentaire',
  search: 'Rechercher un fichier',
  searchPlaceholder: 'Nom du fichier',
  kinds: 'Type de fichier',
  entity: 'Rattachement',
  allFiles: 'Tous les fichiers',
  grid: 'Fichiers de l’organisation',
  download: 'Télécharger',
  empty: 'Aucun fichier pour le moment. Déposez vos documents dans la gestion documentaire, ou joignez-les à un conducteur, un véhicule ou un sinistre : ils apparaîtront ici.',
  emptyFiltered: 'Aucun fichier ne correspond à ces filtres.',
  clearFilters: 'Effacer les filtres',
} as const;

/** The kind chips, in order. */
export const KIND_CHOICES: readonly { value: MediaKind; label: string }[] = [
  { value: 'image', label: 'Images' },
  { value: 'pdf', label: 'PDF' },
  { value: 'other', label: 'Autres' },
];

/** The attachment select's choices (after « Tous les fichiers »). */
export const ENTITY_CHOICES: readonly { value: MediaEntityFilter; label: string }[] = [
  { value: 'driver', label: 'Conducteurs' },
  { value: 'vehicule', label: 'Véhicules' },
  { value: 'sinister', label: 'Sinistres' },
  { value: 'none', label: 'Non rattachés' },
];

const ENTITY_NAMES: Readonly<Record<MediaEntity['type'], { one: string; gone: string }>> = {
  driver: { one: 'Conducteur', gone: 'Conducteur supprimé' },
  vehicule: { one: 'Véhicule', gone: 'Véhicule supprimé' },
  sinister: { one: 'Sinistre', gone: 'Sinistre supprimé' },
};

/** What a file's chip says (« Lefèvre Hélène ») and its full reading (« Conducteur : Lefèvre Hélène »). */
export function entityChipText(entity: MediaEntity): { label: string; title: string } {
  const names = ENTITY_NAMES[entity.type];
  if (entity.label === null) return { label: names.gone, title: names.gone };
  return { label: entity.label, title: `${names.one} : ${entity.label}` };
}
