import type { RootSpace } from '@flotte/contract';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import ExitToAppOutlined from '@mui/icons-material/ExitToAppOutlined';
import PriceChangeOutlined from '@mui/icons-material/PriceChangeOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { formatCount, formatDate, formatFileSize } from '../../../lib/format';
import { formatTierPrice } from './tiers-dialog';

export type SpaceActions = {
  onEdit: (space: RootSpace) => void;
  onTiers: (space: RootSpace) => void;
  onJoin: (space: RootSpace) => void;
  onQuit: (space: RootSpace) => void;
  /** The space ROOT works in now (joined), if any. */
  current: string | undefined;
};

function Superadmins({ space }: { space: RootSpace }) {
  if (space.superadmins.length === 0) return <Typography variant="body2" color="textSecondary">Aucun superadmin</Typography>;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {space.superadmins.map((s) => (
        <li key={s.uuid}>
          <Typography variant="body2">
            {s.firstName} {s.lastName}
          </Typography>
          <Typography variant="caption" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
            {s.email}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

/** The space's plan (the tier in force, its price) and how it is billed (its Stripe product, or not yet). */
function CurrentTier({ space }: { space: RootSpace }) {
  const billing = (
    <Typography variant="caption" color={space.stripeProductId ? 'textSecondary' : 'warning.dark'} sx={{ display: 'block', overflowWrap: 'anywhere' }}>
      {space.stripeProductId ? `Facturé par Stripe (${space.stripeProductId})` : 'Facturation Stripe non reliée'}
    </Typography>
  );
  if (!space.currentTier) {
    return (
      <>
        <Typography variant="body2" color="textSecondary">
          {space.tiersCount > 0 ? 'Aucun palier commencé' : 'Aucun palier'}
        </Typography>
        {billing}
      </>
    );
  }
  return (
    <>
      <Typography variant="body2">{space.currentTier.title}</Typography>
      <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
        {formatTierPrice(space.currentTier.priceCents)}, depuis le {formatDate(space.currentTier.startDate)}
      </Typography>
      {billing}
    </>
  );
}

function Actions({ space, actions }: { space: RootSpace; actions: SpaceActions }) {
  const button = (label: string, icon: ReactNode, onClick: () => void) => (
    <Tooltip title={label}>
      <IconButton aria-label={`${label} : ${space.title}`} onClick={onClick}>
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
      {button('Modifier', <EditOutlined fontSize="small" />, () => actions.onEdit(space))}
      {button('Paliers', <PriceChangeOutlined fontSize="small" />, () => actions.onTiers(space))}
      {actions.current === space.uuid
        ? button('Quitter', <ExitToAppOutlined fontSize="small" />, () => actions.onQuit(space))
        : button('Rejoindre', <LoginOutlined fontSize="small" />, () => actions.onJoin(space))}
    </Box>
  );
}

const usage = (space: RootSpace) => `${formatCount(space.usage.organizations)} org. · ${formatCount(space.usage.vehicules)} véh. · ${formatFileSize(space.usage.storageBytes)}`;

/** The spaces side by side on a computer; a card per space on a phone. */
export function SpacesTable({ spaces, actions }: { spaces: readonly RootSpace[]; actions: SpaceActions }) {
  return (
    <>
      <TableContainer component={Paper} variant="outlined" sx={{ display: { xs: 'none', md: 'block' } }}>
        <Table aria-label="Espaces" size="small">
          <TableHead>
            <TableRow>
              <TableCell>Espace</TableCell>
              <TableCell>Superadmins</TableCell>
              <TableCell>Palier et facturation</TableCell>
              <TableCell align="right">Organisations</TableCell>
              <TableCell align="right">Véhicules</TableCell>
              <TableCell align="right">Stockage</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {spaces.map((space) => (
              <TableRow key={space.uuid} hover>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {space.title}
                  </Typography>
                  {space.refererEmail ? (
                    <Typography variant="caption" color="textSecondary">
                      {space.refererEmail}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>
                  <Superadmins space={space} />
                </TableCell>
                <TableCell>
                  <CurrentTier space={space} />
                </TableCell>
                <TableCell align="right">{formatCount(space.usage.organizations)}</TableCell>
                <TableCell align="right">{formatCount(space.usage.vehicules)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatFileSize(space.usage.storageBytes)}
                </TableCell>
                <TableCell align="right">
                  <Actions space={space} actions={actions} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Box component="ul" aria-label="Espaces" sx={{ display: { xs: 'grid', md: 'none' }, gap: 1.5, m: 0, p: 0, listStyle: 'none' }}>
        {spaces.map((space) => (
          <Paper component="li" key={space.uuid} variant="outlined" sx={{ p: 2, display: 'grid', gap: 1 }}>
            <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {space.title}
            </Typography>
            <Superadmins space={space} />
            <CurrentTier space={space} />
            <Typography variant="body2">{usage(space)}</Typography>
            <Actions space={space} actions={actions} />
          </Paper>
        ))}
      </Box>
    </>
  );
}
