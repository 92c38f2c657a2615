import type { RegisterNoun } from '../register/register-texts';

/**
 * What a record picker says, in French, from the register's noun: `pickerTexts({ one: 'véhicule' })`.
 * Spread it to change one sentence.
 */
export function pickerTexts({ one, many = `${one}s`, feminine = false }: RegisterNoun) {
  const e = feminine ? 'e' : '';
  return {
    /** A term found nothing: 'Aucun véhicule trouvé'. */
    none: `Aucun${e} ${one} trouvé${e}`,
    /** A register held whole that holds nothing: 'Aucun véhicule pour le moment'. */
    empty: `Aucun${e} ${one} pour le moment`,
    /** The register is searched on the server and nothing is typed yet. */
    typeToSearch: (total: number, capped: boolean) =>
      `Tapez pour rechercher parmi ${capped ? 'plus de' : 'les'} ${total.toLocaleString('fr-FR')} ${many}…`,
    loading: `Chargement des ${many}…`,
    searching: 'Recherche…',
  };
}

export type PickerTexts = ReturnType<typeof pickerTexts>;
