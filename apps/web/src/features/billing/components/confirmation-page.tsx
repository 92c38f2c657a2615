import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { formatEuros } from '../../../lib/format';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { PageLoader } from '../../../components/page-loader';
import { billingKeys, useCheckout } from '../api/billing-api';
import { INTERVAL_LABELS } from './billing-texts';

/** /parameters/plans/confirmation?session_id=…: the payment's result, read from the provider. */
export function ConfirmationPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const checkout = useCheckout(sessionId, { poll: true });
  const queryClient = useQueryClient();
  const paid = checkout.data?.paid === true;
  useEffect(() => {
    // The plan (and the menu it unlocks) as the provider's events left it.
    if (paid) void queryClient.invalidateQueries({ queryKey: billingKeys.all, predicate: (query) => query.queryKey[1] !== 'checkout' });
  }, [paid, queryClient]);
  let body;
  if (!sessionId) body = <Alert severity="info">Aucun paiement à confirmer.</Alert>;
  else if (checkout.isPending) body = <PageLoader label="Lecture du paiement" />;
  else if (checkout.isError) body = <Alert severity="error">Paiement introuvable.</Alert>;
  else if (paid) {
    const data = checkout.data!;
    body = (
      <Box role="status" sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <CheckCircleOutline color="success" aria-hidden />
          <Typography component="h2" variant="h6">
            Paiement confirmé
          </Typography>
        </Box>
        <Typography>
          Merci ! Votre offre {data.plan.name} ({INTERVAL_LABELS[data.interval].toLowerCase()}, {data.quantity} {data.quantity > 1 ? 'véhicules' : 'véhicule'}) est active.
          Montant réglé : {formatEuros(data.amountTtc)} TTC.
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button component={RouterLink} to="/parameters/payment-history" variant="contained">
            Voir l’historique des paiements
          </Button>
          <Button component={RouterLink} to="/dashboard">
            Retour au tableau de bord
          </Button>
        </Box>
      </Box>
    );
  } else if (checkout.data!.status === 'expired') {
    body = (
      <Alert severity="warning" action={<Button component={RouterLink} to="/parameters/plans">Voir les offres</Button>}>
        Ce paiement a expiré sans être effectué.
      </Alert>
    );
  } else {
    body = (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <CircularProgress size={24} aria-hidden />
        <Typography>Paiement en cours de confirmation…</Typography>
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 3, maxWidth: 720 }}>
      <DocumentTitle title="Confirmation du paiement" />
      <Typography component="h1" variant="h4">
        Confirmation du paiement
      </Typography>
      {body}
    </Box>
  );
}
