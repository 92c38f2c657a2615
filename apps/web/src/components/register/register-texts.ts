import { plural } from '../../lib/format';

export type RegisterNoun = {
  /** The record, lower case: 'conducteur', 'véhicule', 'alerte'. */
  one: string;
  /** Its plural, when not `one` + 's'. */
  many?: string;
  /** 'une alerte archivée'. */
  feminine?: boolean;
};

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Everything the register kit says about a register's records, in French, from its noun: the
 * title, the labels of the list and its controls, the empty states, the snackbars and the form
 * dialog. A register changes what reads differently for it by spreading: `{ ...registerTexts({
 * one: 'sinistre' }), add: 'Déclarer un sinistre' }`.
 */
export function registerTexts({ one, many = `${one}s`, feminine = false }: RegisterNoun) {
  const e = feminine ? 'e' : '';
  const a = feminine ? 'une' : 'un';
  const elided = /^[aeéèêiîouy]/i.test(one);
  const the = elided ? 'l’' : feminine ? 'la ' : 'le ';
  const ofThe = elided ? 'de l’' : feminine ? 'de la ' : 'du ';
  const One = capitalize(one);
  const activeWord = feminine ? 'active' : 'actif';
  const actives = `${many} ${activeWord}s`;
  return {
    /** h1 and document title: 'Conducteurs'. */
    title: capitalize(many),
    /** The table's accessible name. */
    list: `Liste des ${many}`,
    /** The 'Actifs' / 'Archivés' group's accessible name. */
    status: `Statut des ${many}`,
    search: `Rechercher ${a} ${one}`,
    /** The header's button and the create dialog's title. */
    add: `Ajouter ${a} ${one}`,
    edit: `Modifier ${the}${one}`,
    /** The create form's submit button. */
    create: `Ajouter ${the}${one}`,
    created: `${One} ajouté${e}`,
    edited: `${One} modifié${e}`,
    saveFailed: `Erreur lors de l'enregistrement ${ofThe}${one}`,
    archived: `${One} archivé${e}`,
    restored: `${One} restauré${e}`,
    deleted: `${One} supprimé${e} définitivement`,
    /** '12 conducteurs actifs · 3 archivés'. */
    counts: ({ active, archived }: { active: number; archived: number }) =>
      `${plural(active, `${one} ${activeWord}`, actives)} · ${plural(archived, `archivé${e}`)}`,
    /** After archiving: 'Élodie Écuyer ne figure plus parmi les conducteurs actifs.' */
    gone: (subject: string) => `${subject} ne figure plus parmi les ${actives}.`,
    /** After restoring. */
    back: (subject: string) => `${subject} figure de nouveau parmi les ${actives}.`,
    /** Nothing in the register at all. */
    emptyFirst: `Aucun${e} ${one} pour le moment. Ajoutez votre premi${feminine ? 'ère' : 'er'} ${one}.`,
    /** Only archived records. */
    emptyActive: `Aucun${e} ${one} ${activeWord}. Ajoutez ${a} ${one} ou retrouvez les ancien${feminine ? 'ne' : ''}s dans « Archivés ».`,
    noneArchived: `Aucun${e} ${one} archivé${e}.`,
    seeActive: `Voir les ${actives}`,
  };
}

export type RegisterTexts = ReturnType<typeof registerTexts>;
