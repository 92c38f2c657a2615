import type { RegisterNoun } from '../register/register-texts';
import { formatCount } from '../../lib/format';

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
      `Tapez pour rechercher parmi ${capped ? 'plus de' : 'les'} ${formatCount(total)} ${many}…`,
    /** Under the list, when a search found more than the page shows. */
    more: (shown: number, found: number, capped: boolean) =>
      `Seul${e}s les ${formatCount(shown)} premi${feminine ? 'ères' : 'ers'} des ${capped ? 'plus de ' : ''}${formatCount(found)} ${many} trouvé${e}s sont proposé${e}s : précisez la recherche.`,
    loading: `Chargement des ${many}…`,
    searching: 'Recherche…',
  };
}

export type PickerTexts = ReturnType<typeof pickerTexts>;
