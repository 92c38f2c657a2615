import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { HalfDifference } from '@flotte/contract';
import { memo } from 'react';
import { Link as RouterLink } from 'react-router';
import { ResponsiveTable } from '../../../components/responsive-table';
import { formatCount, formatDate, formatEuros, plural } from '../../../lib/format';
import type { TopDrivers } from '../api/dashboard-api';
import { formatSignedVehicles } from '../../../lib/insurance-figures';
import { claimsUrl, twelveMonthsTo, vehiclesUrl } from '../utils/dashboard-links';
import type { DashboardWindow } from '../utils/dashboard-window';
import { Panel } from './panel';
import { Placeholder } from './placeholder';

/** A figure that opens its records: at least 24 px wide and high, so that a lone '2' is not a pinpoint on a phone. */
const figureLink = { display: 'inline-block', minWidth: 24, minHeight: 24, lineHeight: '24px', textAlign: 'right' } as const;
const signedEuros = (amount: number | null) => (amount === null ? '—' : amount > 0 ? `+${formatEuros(amount)}` : formatEuros(amount));

/** The half-difference of every period, newest first; N1 opens the vehicles counted. */
export const HalfDifferencesTable = memo(function HalfDifferencesTable({ rows, pending }: { rows?: HalfDifference[]; pending: boolean }) {
  return (
    <Panel id="half-differences-title" title="Demi-différence par période">
      {pending ? (
        <Placeholder height={120} />
      ) : (
        <ResponsiveTable
          label="Demi-différence par période"
          rows={rows ?? []}
          rowKey={(row) => row.indicatorUuid}
          title={{
            label: 'Période',
            // On one line in the table; on a phone's card the chip goes under the dates, flush left.
            value: (row) => (
              <Box component="span" sx={{ display: 'inline-flex', flexWrap: { xs: 'wrap', sm: 'nowrap' }, alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  Du {formatDate(row.startDate)} au {formatDate(row.endDate)}
                </Box>
                {row.isCurrent && <Chip size="small" label="En cours" />}
              </Box>
            ),
          }}
          columns={[
            { label: 'Véhicules au début (N0)', numeric: true, value: (row) => formatCount(row.n0) },
            {
              label: 'Véhicules à la fin (N1)',
              numeric: true,
              value: (row) => (
                <Link component={RouterLink} to={vehiclesUrl(row.countedOn)} sx={figureLink} aria-label={`${plural(row.n1, 'véhicule')} dans la flotte le ${formatDate(row.countedOn)}`}>
                  {formatCount(row.n1)}
                </Link>
              ),
            },
            { label: 'Demi-différence', numeric: true, value: (row) => formatSignedVehicles(row.halfDifference) },
            { label: 'Prime unitaire', numeric: true, value: (row) => (row.unitPremium === null ? '—' : formatEuros(row.unitPremium)) },
            { label: 'Régularisation', numeric: true, value: (row) => signedEuros(row.regularisation) },
          ]}
        />
      )}
    </Panel>
  );
});

/** The drivers with the most at-fault claims over the 12 months ending on the window's last day; each opens that driver's claims. */
export const TopDriversTable = memo(function TopDriversTable({ rows, pending, window }: { rows?: TopDrivers; pending: boolean; window: DashboardWindow }) {
  const months = twelveMonthsTo(window.endDate);
  const name = (row: TopDrivers[number]) => `${row.firstName} ${row.lastName}`;
  return (
    <Panel id="top-drivers-title" title="Conducteurs les plus sinistrés">
      <Typography variant="body2" color="textSecondary">
        Sinistres dont la responsabilité est engagée, du {formatDate(months.startDate)} au {formatDate(months.endDate)}.
      </Typography>
      {pending ? (
        <Placeholder height={120} />
      ) : !rows?.length ? (
        <Typography color="textSecondary">Aucun sinistre responsable sur ces douze mois.</Typography>
      ) : (
        <ResponsiveTable
          label="Conducteurs les plus sinistrés"
          rows={rows}
          rowKey={(row) => row.driverUuid}
          title={{ label: 'Conducteur', value: name }}
          columns={[
            {
              label: 'Sinistres responsables',
              numeric: true,
              value: (row) => (
                <Link
                  component={RouterLink}
                  to={claimsUrl({ ...months, declared: window.declared, responsible: 'me', driver: row.driverUuid })}
                  sx={figureLink}
                  aria-label={`${plural(row.atFaultClaims, 'sinistre responsable', 'sinistres responsables')} de ${name(row)}`}
                >
                  {formatCount(row.atFaultClaims)}
                </Link>
              ),
            },
            { label: 'Coût', numeric: true, value: (row) => formatEuros(row.cost) },
          ]}
        />
      )}
    </Panel>
  );
});
