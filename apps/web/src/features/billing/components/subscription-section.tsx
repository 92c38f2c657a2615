import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatPlanPrice, SUBSCRIPTION_STATUS_LABELS } from '@flotte/contract';
import { Link as RouterLink } from 'react-router';
import { SectionCard } from '../../../components/section-card';
import { formatDate } from '../../../lib/format';
import { useCurrentPlan } from '../api/billing-api';

/** /parameters#abonnement: the organization's plan, with the way to the plans and the payment history. */
export function SubscriptionSection() {
  const current = useCurrentPlan();
  const data = current.data;
  let summary;
  if (current.isPending) summary = <Skeleton variant="text" width="60%" aria-hidden />;
  else if (!data) summary = <Typography variant="body2">L’abonnement n’a pas pu être chargé.</Typography>;
  else if (data.source === 'environment') summary = <Typography variant="body2">Votre organisation est facturée par son espace : toutes les fonctionnalités sont incluses.</Typography>;
  else if (data.source === 'organization' && data.plan && data.subscription)
    summary = (
      <Typography variant="body2">
        Abonnement <strong>{data.plan.name}</strong> ({SUBSCRIPTION_STATUS_LABELS[data.subscription.status].toLowerCase()}) —{' '}
        {formatPlanPrice(data.subscription.interval === 'year' ? data.plan.yearlyMonthlyPrice : data.plan.monthlyPrice)}, {data.subscription.quantity}{' '}
        {data.subscription.quantity > 1 ? 'véhicules' : 'véhicule'}
        {data.subscription.currentPeriodEnd ? `, jusqu’au ${formatDate(data.subscription.currentPeriodEnd)}` : ''}.
      </Typography>
    );
  else summary = <Typography variant="body2">Aucune offre souscrite : la gestion documentaire et les alertes prévention sont à venir avec une offre.</Typography>;
  return (
    <SectionCard id="abonnement" title="Abonnement" description="Votre offre, son prix par véhicule et l’historique de vos paiements.">
      {summary}
      {data && data.source !== 'environment' ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button component={RouterLink} to="/parameters/plans" variant="outlined">
            Voir les offres
          </Button>
          {data.canPay ? (
            <Button component={RouterLink} to="/parameters/payment-history">
              Historique des paiements
            </Button>
          ) : null}
        </Box>
      ) : null}
    </SectionCard>
  );
}
