import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { HalfDifference } from '@flotte/contract';
import { Link as RouterLink } from 'react-router';
import { formatCount, formatDate, formatEuros, plural } from '../../../lib/format';
import type { TopDrivers } from '../api/dashboard-api';
import { formatSignedVehicles } from '../utils/dashboard-figures';
import { claimsUrl, twelveMonthsTo, vehiclesUrl } from '../utils/dashboard-links';
import type { DashboardWindow } from '../utils/dashboard-window';
import { Placeholder } from './placeholder';

const num = { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
/** A numeric column's header: right-aligned, and free to wrap (the figures below do not). */
const head = { textAlign: 'right' } as const;
const signedEuros = (amount: number | null) => (amount === null ? '—' : amount > 0 ? `+${formatEuros(amount)}` : formatEuros(amount));

function Frame({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card component="section" aria-labelledby={id} sx={{ p: 2, display: 'grid', gap: 1, alignContent: 'start', minWidth: 0 }}>
      <Typography id={id} component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      {children}
    </Card>
  );
}

/** The half-difference of every period, newest first; N1 opens the vehicles counted. */
export function HalfDifferencesTable({ rows, pending }: { rows?: HalfDifference[]; pending: boolean }) {
  return (
    <Frame id="half-differences-title" title="Demi-différence par période">
      {pending ? (
        <Placeholder height={120} />
      ) : (
        <TableContainer>
          <Table size="small" aria-labelledby="half-differences-title">
            <TableHead>
              <TableRow>
                <TableCell>Période</TableCell>
                <TableCell sx={head}>Véhicules au début (N0)</TableCell>
                <TableCell sx={head}>Véhicules à la fin (N1)</TableCell>
                <TableCell sx={head}>Demi-différence</TableCell>
                <TableCell sx={head}>Prime unitaire</TableCell>
                <TableCell sx={head}>Régularisation</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(rows ?? []).map((row) => (
                <TableRow key={row.indicatorUuid}>
                  <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                    du {formatDate(row.startDate)} au {formatDate(row.endDate)}
                    {row.isCurrent && <Chip size="small" label="En cours" sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell sx={num}>{formatCount(row.n0)}</TableCell>
                  <TableCell sx={num}>
                    <Link component={RouterLink} to={vehiclesUrl(row.countedOn)} aria-label={`${plural(row.n1, 'véhicule')} dans la flotte le ${formatDate(row.countedOn)}`}>
                      {formatCount(row.n1)}
                    </Link>
                  </TableCell>
                  <TableCell sx={num}>{formatSignedVehicles(row.halfDifference)}</TableCell>
                  <TableCell sx={num}>{row.unitPremium === null ? '—' : formatEuros(row.unitPremium)}</TableCell>
                  <TableCell sx={num}>{signedEuros(row.regularisation)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Frame>
  );
}

/** The drivers with the most at-fault claims over the 12 months ending on the window's last day. */
export function TopDriversTable({ rows, pending, window }: { rows?: TopDrivers; pending: boolean; window: DashboardWindow }) {
  const months = twelveMonthsTo(window.endDate);
  return (
    <Frame id="top-drivers-title" title="Conducteurs les plus sinistrés">
      <Typography variant="body2" color="textSecondary">
        Sinistres dont la responsabilité est engagée, du {formatDate(months.startDate)} au {formatDate(months.endDate)}.
      </Typography>
      {pending ? (
        <Placeholder height={120} />
      ) : !rows?.length ? (
        <Typography color="textSecondary">Aucun sinistre responsable sur ces douze mois.</Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-labelledby="top-drivers-title">
            <TableHead>
              <TableRow>
                <TableCell>Conducteur</TableCell>
                <TableCell sx={head}>Sinistres responsables</TableCell>
                <TableCell sx={head}>Coût</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => {
                const name = `${row.firstName} ${row.lastName}`;
                return (
                  <TableRow key={row.driverUuid}>
                    <TableCell component="th" scope="row">
                      {name}
                    </TableCell>
                    <TableCell sx={num}>
                      <Link
                        component={RouterLink}
                        to={claimsUrl({ ...months, declared: window.declared, responsible: 'me', search: name })}
                        aria-label={`${plural(row.atFaultClaims, 'sinistre responsable', 'sinistres responsables')} de ${name}`}
                      >
                        {formatCount(row.atFaultClaims)}
                      </Link>
                    </TableCell>
                    <TableCell sx={num}>{formatEuros(row.cost)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Frame>
  );
}
