import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useDeferredValue } from 'react';
import { DocumentTitle } from '../../../components/document-title';
import { LinesOnAPhone } from '../../../components/lines-on-a-phone';
import { DashboardScreen, useDashboardWindow } from '../../../features/dashboard/components/dashboard-screen';
import { RenewalReportButton } from '../../../features/renewal-report/components/renewal-report-button';
import { useCurrentUser } from '../../../lib/auth-store';

export default function DashboardRoute() {
  const user = useCurrentUser();
  const organization = user?.currentOrganizationUser?.organization ?? null;
  const [window, setWindow] = useDashboardWindow();
  // The header (the title and the greeting, the page's largest paint) is drawn first; the
  // indicators, their queries and cards in a render of their own: two shorter tasks on a phone's
  // slow CPU instead of one long one (issue 10).
  const drawn = useDeferredValue(true, false);

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <DocumentTitle title="Tableau de bord" />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
        <Box>
          <Typography component="h1" variant="h4">
            Tableau de bord
          </Typography>
          {/* The greeting and the welcome: a line each on a phone (LinesOnAPhone). */}
          <Typography color="textSecondary" sx={{ mt: 0.5 }}>
            <LinesOnAPhone
              parts={[
                user && `Bonjour ${user.firstName},`,
                organization ? (
                  <>
                    bienvenue dans l&apos;espace de <strong>{organization.title}</strong>.
                  </>
                ) : (
                  'bienvenue sur FlotteAssur.'
                ),
              ]}
            />
          </Typography>
        </Box>
        {organization && (
          // The header's actions: the renewal report of the window on screen.
          <Box data-testid="dashboard-actions" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <RenewalReportButton
              startDate={window.startDate}
              endDate={window.endDate}
              isDeclared={window.declared === 'all' ? undefined : window.declared === 'declared'}
            />
          </Box>
        )}
      </Box>

      {organization ? (
        drawn && <DashboardScreen window={window} onWindowChange={setWindow} />
      ) : (
        <Alert severity="info">
          Aucune organisation n&apos;est sélectionnée : vos indicateurs s&apos;afficheront dès qu&apos;une organisation sera ajoutée à votre environnement.
        </Alert>
      )}
    </Box>
  );
}
