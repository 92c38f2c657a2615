import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { BillingFeature } from '@flotte/contract';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { PageLoader } from '../../../components/page-loader';
import { useCurrentUser } from '../../../lib/auth-store';
import { useCurrentPlanQuery } from '../api/locked-features';

// Written here rather than read from the contract's billing module: that one builds zod schemas,
// which a page's first load would then carry (issue 10).
const TITLES: Record<BillingFeature, string> = { documents: 'Gestion documentaire', alerts: 'Alertes prévention' };
const INCLUDED_IN: Record<BillingFeature, string> = {
  documents: 'La gestion documentaire est incluse dans les offres Essentiel et Pro.',
  alerts: 'Les alertes prévention sont incluses dans l’offre Pro.',
};

/**
 * A page of a feature a plan unlocks (decision 044), opened by its address while the menu shows it
 * locked: instead of the page (whose calls the API refuses), what it is and where to choose an
 * offer. An organization inside an environment has every feature: its page shows at once.
 */
export function PlanFeature({ feature, children }: { feature: BillingFeature; children: ReactNode }) {
  const billedAlone = useCurrentUser()?.currentOrganizationUser?.organization.environment === null;
  if (!billedAlone) return children;
  return <OwnPlanFeature feature={feature}>{children}</OwnPlanFeature>;
}

/** For an organization that pays for itself: its plan says (the sidebar asked it already, same query). */
function OwnPlanFeature({ feature, children }: { feature: BillingFeature; children: ReactNode }) {
  const plan = useCurrentPlanQuery();
  if (plan.isPending) return <PageLoader label="Chargement de votre offre" />;
  // The plan unknown (an error): the page, whose own calls will say what is wrong.
  if (!plan.data || plan.data.features.includes(feature)) return children;
  const title = TITLES[feature];
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 720 }}>
      <DocumentTitle title={title} />
      <Typography component="h1" variant="h4">
        {title}
      </Typography>
      {/* The link under the text, not beside it: on a phone the text keeps the width. */}
      <Alert severity="info">
        {INCLUDED_IN[feature]} {plan.data.canPay ? 'Choisissez une offre pour en profiter.' : 'Un administrateur de votre organisation peut en choisir une.'}
        <Box sx={{ mt: 1 }}>
          <Button variant="outlined" color="info" size="small" component={RouterLink} to="/parameters/plans">
            Voir les offres
          </Button>
        </Box>
      </Alert>
    </Box>
  );
}
