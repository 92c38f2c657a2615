import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { Suspense, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { lazyComponent } from '../../../components/lazy-component';
import { useCurrentUser } from '../../../lib/auth-store';

const PreventionAlertsAdmin = lazyComponent(() => import('./prevention-alerts-admin').then((m) => m.PreventionAlertsAdmin));

const TABS = [
  { value: 'alertes', label: 'Alertes' },
  { value: 'questionnaires', label: 'Questionnaires' },
] as const;

/**
 * /superadmin/alerts: the broker's prevention console, its alerts and its surveys, one tab each.
 * The surveys' tab is given by the route (another feature's component, lazily loaded there).
 */
export function SuperadminAlertsPage({ surveys }: { surveys: ReactNode }) {
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const tab = params.get('onglet') === 'questionnaires' ? 'questionnaires' : 'alertes';
  const environment = user?.currentEnvironmentUser?.environment.uuid ?? null;
  const superadmin = Boolean(user?.roles.includes('SUPERADMIN') || user?.roles.includes('ROOT'));
  return (
    <Box sx={{ display: 'grid', gap: 2.5, maxWidth: 960 }}>
      <DocumentTitle title="Gestion des alertes" />
      <Typography component="h1" variant="h4">
        Gestion des alertes
      </Typography>
      {!superadmin ? (
        <Alert severity="warning">Cette page est réservée aux superadmins d'un environnement.</Alert>
      ) : !environment ? (
        <Alert severity="info">Vous n'êtes rattaché à aucun environnement : les alertes s'écrivent pour les organisations d'un environnement.</Alert>
      ) : (
        <>
          <Tabs value={tab} onChange={(_, value: string) => setParams(value === 'alertes' ? {} : { onglet: value })} aria-label="Alertes et questionnaires">
            {TABS.map((item) => (
              <Tab key={item.value} value={item.value} label={item.label} id={`onglet-${item.value}`} aria-controls={`panneau-${item.value}`} />
            ))}
          </Tabs>
          <Box role="tabpanel" id={`panneau-${tab}`} aria-labelledby={`onglet-${tab}`}>
            <Suspense fallback={<Skeleton variant="rounded" height={240} aria-hidden />}>
              {tab === 'alertes' ? <PreventionAlertsAdmin environment={environment} /> : surveys}
            </Suspense>
          </Box>
        </>
      )}
    </Box>
  );
}
