import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { COUNT_CAP } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { sinistersApi } from '../api/sinisters-api';
import { formatCount } from '../../../lib/format';

/** The record about to be deleted permanently: a vehicle or a driver, by its uuid. */
export type LinkedSinistersProps = { vehicule: string; driver?: never } | { driver: string; vehicule?: never };

/** What becomes of the claims once the link goes: the API keeps them, without it. */
const KEPT = {
  vehicule: {
    them: 'ce véhicule',
    one: 'il est conservé, sans lien vers lui (son immatriculation reste inscrite)',
    many: 'ils sont conservés, sans lien vers lui (leur immatriculation reste inscrite)',
  },
  driver: {
    them: 'ce conducteur',
    one: 'il est conservé, sans conducteur associé',
    many: 'ils sont conservés, sans conducteur associé',
  },
} as const;

/**
 * Said in the permanent deletion's confirmation of a vehicle or a driver: how many claims refer to
 * it (archived ones too) and what happens to them. Loaded as the confirmation opens; while it
 * loads, or if it fails, the deletion stays possible.
 */
export function LinkedSinisters(props: LinkedSinistersProps) {
  const words = KEPT[props.vehicule !== undefined ? 'vehicule' : 'driver'];
  const link = props.vehicule !== undefined ? { vehicule: props.vehicule } : { driver: props.driver };
  const count = useQuery(sinistersApi.countQueryOptions({ ...link, withArchived: 'true' }));

  if (count.isPending) {
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={14} aria-hidden />
        Recherche des sinistres liés à {words.them}…
      </Box>
    );
  }
  if (count.isError) return <>Le nombre de sinistres liés à {words.them} n’a pas pu être vérifié. S’il y en a, ils sont conservés.</>;
  const { total, capped } = count.data;
  if (total === 0) return <>Aucun sinistre ne fait référence à {words.them}.</>;
  const howMany = capped ? `Plus de ${formatCount(COUNT_CAP)} sinistres font` : total === 1 ? '1 sinistre fait' : `${formatCount(total)} sinistres font`;
  return <>{`${howMany} référence à ${words.them} : ${total === 1 && !capped ? words.one : words.many}.`}</>;
}
