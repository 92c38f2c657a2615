import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type BillingInterval, EnvironmentPlanSchema, formatPlanPrice, type Plan, SUBSCRIPTION_STATUS_LABELS } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { api } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useCurrentPlan, usePlans } from '../api/billing-api';
import { BASE_FEATURES, featureLabel, PAYER_ONLY } from './billing-texts';

function PlanCard({ plan, interval, current, canPay }: { plan: Plan; interval: BillingInterval; current: boolean; canPay: boolean }) {
  const price = interval === 'year' ? plan.yearlyMonthlyPrice : plan.monthlyPrice;
  const headingId = `offre-${plan.id}`;
  return (
    <Card component="article" aria-labelledby={headingId} variant="outlined" sx={{ borderColor: current ? 'primary.main' : undefined, borderWidth: current ? 2 : 1 }}>
      <CardContent sx={{ display: 'grid', gap: 1.5, p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography component="h2" variant="h5" id={headingId}>
            {plan.name}
          </Typography>
          {current ? <Chip label="Offre actuelle" color="primary" size="small" /> : null}
        </Box>
        <Typography variant="body2" color="textSecondary">
          {plan.description}
        </Typography>
        <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
          {formatPlanPrice(price)}
        </Typography>
        {interval === 'year' ? (
          <Typography variant="caption" color="textSecondary">
            Facturé une fois par an.
          </Typography>
        ) : null}
        <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none', display: 'grid', gap: 0.5 }}>
          {[...BASE_FEATURES, ...plan.features.map(featureLabel)].map((label) => (
            <Box component="li" key={label} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <CheckCircleOutline fontSize="small" color="success" aria-hidden />
              <Typography variant="body2">{label}</Typography>
            </Box>
          ))}
        </Box>
        {canPay ? (
          <Button
            component={RouterLink}
            to={`/parameters/plans/checkout?plan=${encodeURIComponent(plan.id)}&interval=${interval}`}
            variant={current ? 'outlined' : 'contained'}
            aria-label={`Choisir l’offre ${plan.name}`}
          >
            {current ? 'Renouveler cette offre' : 'Choisir cette offre'}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

function EnvironmentNotice() {
  const environment = useQuery({ queryKey: ['billing', 'environment-plan'], queryFn: ({ signal }) => api('/api/stripe/environment/current-plan', { schema: import.meta.env.DEV ? EnvironmentPlanSchema : undefined, signal }) });
  const title = environment.data?.environment.title;
  return (
    <Alert severity="info">
      Votre organisation est facturée par {title ? `son espace « ${title} »` : 'son espace'} : toutes les fonctionnalités sont incluses, aucun paiement à faire ici.
    </Alert>
  );
}

/** /parameters/plans: the plans, prices HT per vehicle per month, the current one marked. */
export function PlansPage() {
  const plans = usePlans();
  const current = useCurrentPlan();
  const [interval, setInterval] = useState<BillingInterval>(current.data?.subscription?.interval ?? 'month');
  const currentPlanId = current.data?.source === 'organization' ? current.data.plan?.id : undefined;
  const canPay = current.data?.canPay === true && current.data.source !== 'environment';
  return (
    <Box sx={{ display: 'grid', gap: 3, maxWidth: 960 }}>
      <DocumentTitle title="Offres et abonnement" />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
        <Box>
          <Typography component="h1" variant="h4">
            Offres et abonnement
          </Typography>
          <Typography variant="body2" color="textSecondary">
            Prix hors taxes, par véhicule actif et par mois ; TVA de 20 % en sus.
          </Typography>
        </Box>
        {canPay ? (
          <Button component={RouterLink} to="/parameters/payment-history" variant="text">
            Historique des paiements
          </Button>
        ) : null}
      </Box>
      {current.data?.source === 'environment' ? <EnvironmentNotice /> : null}
      {current.data?.source === 'organization' && current.data.subscription ? (
        <Alert severity="success">
          Abonnement {current.data.plan?.name} : {SUBSCRIPTION_STATUS_LABELS[current.data.subscription.status].toLowerCase()}, {current.data.subscription.quantity}{' '}
          {current.data.subscription.quantity > 1 ? 'véhicules' : 'véhicule'}
          {current.data.subscription.currentPeriodEnd ? `, jusqu’au ${formatDate(current.data.subscription.currentPeriodEnd)}` : ''}.
        </Alert>
      ) : null}
      {current.data && current.data.source !== 'environment' && !current.data.canPay ? <Alert severity="info">{PAYER_ONLY}</Alert> : null}
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={interval}
        onChange={(_event, value: BillingInterval | null) => value && setInterval(value)}
        aria-label="Paiement"
        sx={{
          justifySelf: 'start',
          bgcolor: 'background.paper',
          // MUI's default grey of an unselected button is below WCAG AA on our background (as archive-filter.tsx).
          '& .MuiToggleButton-root': { px: 1.5, color: 'text.secondary' },
          '& .MuiToggleButton-root.Mui-selected': { color: 'primary.dark' },
        }}
      >
        <ToggleButton value="month">Paiement mensuel</ToggleButton>
        <ToggleButton value="year">Paiement annuel</ToggleButton>
      </ToggleButtonGroup>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {plans.isPending
          ? [0, 1].map((i) => <Skeleton key={i} variant="rounded" height={320} aria-hidden />)
          : plans.data?.map((plan) => <PlanCard key={plan.id} plan={plan} interval={interval} current={plan.id === currentPlanId} canPay={canPay} />)}
      </Box>
      {plans.isError ? <Alert severity="error">Les offres n’ont pas pu être chargées.</Alert> : null}
    </Box>
  );
}
