import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { type BillingInterval, type Checkout, formatPlanPrice } from '@flotte/contract';
import { formatEuros } from '../../../lib/format';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { PageLoader } from '../../../components/page-loader';
import { ApiError } from '../../../lib/api-error';
import { useCheckout, useCreateCheckout, usePayEmbedded, usePlans } from '../api/billing-api';
import { INTERVAL_LABELS, INTERVAL_PERIODS } from './billing-texts';

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
      <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 400 }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 400, textAlign: 'right' }}>
        {value}
      </Typography>
    </Box>
  );
}

const errorMessage = (error: unknown) => (error instanceof ApiError ? error.message : 'Le paiement n’a pas pu être lancé. Réessayez dans un instant.');

/** Step 1: the chosen plan; « Procéder au paiement » creates the checkout (Stripe's page or ours). */
function ChoosePlan({ planId, interval }: { planId: string; interval: BillingInterval }) {
  const plans = usePlans();
  const create = useCreateCheckout();
  const navigate = useNavigate();
  const plan = plans.data?.find((p) => p.id === planId);
  if (plans.isPending) return <PageLoader label="Chargement de l’offre" />;
  if (!plan) return <Alert severity="error">Offre inconnue : choisissez une offre dans la liste.</Alert>;
  const start = async () => {
    const checkout = await create.mutateAsync({ planId: plan.id, interval });
    if (checkout.provider === 'stripe') window.location.assign(checkout.url);
    else void navigate(checkout.url);
  };
  const price = interval === 'year' ? plan.yearlyMonthlyPrice : plan.monthlyPrice;
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'grid', gap: 1.5, p: { xs: 2, sm: 3 } }}>
        <Typography component="h2" variant="h6">
          Offre {plan.name} — paiement {INTERVAL_LABELS[interval].toLowerCase()}
        </Typography>
        <Typography variant="body2">{formatPlanPrice(price)}</Typography>
        <Typography variant="body2" color="textSecondary">
          Le nombre de véhicules facturés est celui des véhicules actifs de votre flotte ; il est mis à jour chaque jour.
        </Typography>
        {create.isError ? <Alert severity="error">{errorMessage(create.error)}</Alert> : null}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button variant="contained" onClick={() => void start().catch(() => undefined)} loading={create.isPending}>
            Procéder au paiement
          </Button>
          <Button component={RouterLink} to="/parameters/plans">
            Changer d’offre
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

function Summary({ checkout }: { checkout: Checkout }) {
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Row label={`Offre ${checkout.plan.name} (${INTERVAL_LABELS[checkout.interval].toLowerCase()})`} value={formatPlanPrice(checkout.interval === 'year' ? checkout.plan.yearlyMonthlyPrice : checkout.plan.monthlyPrice)} />
      <Row label="Véhicules facturés" value={String(checkout.quantity)} />
      <Divider />
      <Row label={`Total HT ${INTERVAL_PERIODS[checkout.interval]}`} value={formatEuros(checkout.amountHt)} />
      <Row label="TVA (20 %)" value={formatEuros(Math.round((checkout.amountTtc - checkout.amountHt) * 100) / 100)} />
      <Row label={`Total TTC ${INTERVAL_PERIODS[checkout.interval]}`} value={formatEuros(checkout.amountTtc)} strong />
    </Box>
  );
}

/** Step 2 without Stripe: the app's own checkout page (decision 044). */
function EmbeddedCheckout({ sessionId }: { sessionId: string }) {
  const checkout = useCheckout(sessionId);
  const pay = usePayEmbedded();
  const navigate = useNavigate();
  if (checkout.isPending) return <PageLoader label="Chargement du paiement" />;
  if (checkout.isError) return <Alert severity="error">{checkout.error instanceof ApiError && checkout.error.status === 404 ? 'Paiement introuvable.' : errorMessage(checkout.error)}</Alert>;
  const data = checkout.data;
  const confirm = async () => {
    await pay.mutateAsync(sessionId);
    void navigate(`/parameters/plans/confirmation?session_id=${encodeURIComponent(sessionId)}`);
  };
  return (
    <Card variant="outlined" sx={{ maxWidth: 560 }}>
      <CardContent sx={{ display: 'grid', gap: 2, p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <LockOutlined fontSize="small" aria-hidden />
          <Typography component="h2" variant="h6">
            Récapitulatif
          </Typography>
        </Box>
        <Summary checkout={data} />
        {data.status !== 'open' ? (
          <Alert severity={data.status === 'complete' ? 'success' : 'warning'}>
            {data.status === 'complete' ? 'Ce paiement a déjà été effectué.' : 'Ce paiement a expiré : choisissez à nouveau une offre.'}
          </Alert>
        ) : (
          <>
            <Alert severity="info">Paiement intégré : aucun prestataire de paiement n’est configuré, aucune carte n’est débitée.</Alert>
            {pay.isError ? <Alert severity="error">{errorMessage(pay.error)}</Alert> : null}
            <Button variant="contained" size="large" onClick={() => void confirm().catch(() => undefined)} loading={pay.isPending}>
              Payer {formatEuros(data.amountTtc)}
            </Button>
          </>
        )}
        <Button component={RouterLink} to="/parameters/plans">
          Retour aux offres
        </Button>
      </CardContent>
    </Card>
  );
}

/** /parameters/plans/checkout: ?plan=…&interval=… (start) or ?session=… (the embedded payment). */
export function CheckoutPage() {
  const [params] = useSearchParams();
  const session = params.get('session');
  const planId = params.get('plan');
  const interval: BillingInterval = params.get('interval') === 'year' ? 'year' : 'month';
  return (
    <Box sx={{ display: 'grid', gap: 3, maxWidth: 720 }}>
      <DocumentTitle title="Paiement" />
      <Typography component="h1" variant="h4">
        Paiement
      </Typography>
      {session ? <EmbeddedCheckout sessionId={session} /> : planId ? <ChoosePlan planId={planId} interval={interval} /> : <Alert severity="info">Choisissez d’abord une offre.</Alert>}
    </Box>
  );
}
