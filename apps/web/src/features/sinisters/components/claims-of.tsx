import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { COUNT_CAP } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { DetailSection } from '../../../components/register/record-dialog';
import { formatCount, formatDate, formatEuros } from '../../../lib/format';
import { sinistersApi } from '../api/sinisters-api';
import { SinisterStatusChip } from './sinister-status-chip';

/** The claims shown in a vehicle's or a driver's details; the count and total cover them all. */
export const CLAIMS_SHOWN = 5;

export type ClaimsOfProps = { vehicule: string; driver?: never } | { driver: string; vehicule?: never };

/** '3 sinistres · 12 345,00 €': French, 0 and 1 singular. */
export function claimsSummary(total: number, capped: boolean, totalCost: number): string {
  const count = capped ? `Plus de ${formatCount(COUNT_CAP)} sinistres` : `${formatCount(total)} ${total > 1 ? 'sinistres' : 'sinistre'}`;
  return `${count} · ${formatEuros(totalCost)}`;
}

/**
 * A vehicle's or a driver's active claims in its details dialog: how many, their total cost (paid
 * and reserves), and the latest few with their status and cost.
 */
export function ClaimsOf(props: ClaimsOfProps) {
  const link = props.vehicule !== undefined ? { vehicule: props.vehicule } : { driver: props.driver };
  const claims = useQuery(sinistersApi.listQueryOptions({ ...link, limit: CLAIMS_SHOWN, sortBy: '-sinisterDate' }));

  let body;
  if (claims.isPending) {
    body = (
      <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={14} aria-hidden />
        Chargement des sinistres…
      </Box>
    );
  } else if (claims.isError) {
    body = <Typography variant="body2">Les sinistres n’ont pas pu être chargés.</Typography>;
  } else if (claims.data.total === 0) {
    body = <Typography variant="body2">Aucun sinistre.</Typography>;
  } else {
    const { data, total, totalIsCapped, sums } = claims.data;
    const more = total - data.length;
    body = (
      <>
        <Typography variant="body2" sx={{ fontWeight: 600, mb: 1 }}>
          {claimsSummary(total, totalIsCapped === true, sums.totalCost)} <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary' }}>(réglé et provisions)</Box>
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.75 }}>
          {data.map((claim) => (
            <Box component="li" key={claim.uuid} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
              <span>{formatDate(claim.sinisterDate)}</span>
              {claim.guarantee && <Box component="span" sx={{ color: 'text.secondary' }}>{claim.guarantee.label}</Box>}
              <SinisterStatusChip status={claim.status} />
              <Box component="span" sx={{ ml: 'auto', fontVariantNumeric: 'tabular-nums' }}>
                {formatEuros(claim.totalCost)}
              </Box>
            </Box>
          ))}
        </Box>
        {more > 0 && (
          <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
            {`Et ${totalIsCapped ? 'plus de ' : ''}${formatCount(more)} ${more > 1 ? 'autres' : 'autre'}, dans l’écran Sinistres.`}
          </Typography>
        )}
      </>
    );
  }
  return <DetailSection title="Sinistres">{body}</DetailSection>;
}
