import { SectionCard } from '../../../components/section-card';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { Suspense } from 'react';
import { LIMIT_WARNING_POINTS } from '@flotte/contract';
import { lazyComponent } from '../../../components/lazy-component';
import { useCurrentUser } from '../../../lib/auth-store';
import { isAdministrator } from '../../../lib/permissions';
import { useDashboardConfig } from '../api/indicators-api';

const HELP = `Le tableau de bord montre chaque indicateur en vert sous sa limite, en orange à moins de ${LIMIT_WARNING_POINTS} points, en rouge au-dessus.`;

// The form (react-hook-form, the contract's zod schema) loads only for an administrator.
const LimitsForm = lazyComponent(() => import('./limits-form').then((m) => m.LimitsForm));

/** "Limites" of the /parameters page: the loss ratio and claim frequency thresholds; administrators edit them. */
export function LimitsSection() {
  const config = useDashboardConfig();
  const admin = isAdministrator(useCurrentUser());
  return (
    <SectionCard id="limites" title="Limites" description={HELP}>
      {config.isPending ? (
        <CircularProgress size={24} aria-label="Chargement des limites" />
      ) : config.isError ? (
        <Alert severity="error">Les limites n'ont pas pu être chargées : {config.error.message}</Alert>
      ) : admin ? (
        <Suspense fallback={<CircularProgress size={24} aria-label="Chargement du formulaire" />}>
          <LimitsForm config={config.data} />
        </Suspense>
      ) : (
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1, m: 0 }}>
          <Typography component="dt">Limite du S/P</Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
            {config.data.lossRatioPercentage} %
          </Typography>
          <Typography component="dt">Limite de la fréquence</Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
            {config.data.claimFrequencyPercentage} %
          </Typography>
        </Box>
      )}
    </SectionCard>
  );
}
