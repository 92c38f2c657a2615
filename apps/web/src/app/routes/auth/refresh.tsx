import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { PageLoader } from '../../../components/page-loader';
import { restoreSession } from '../../../lib/restore-session';
import { safeRoute, withRoute } from '../../../lib/safe-route';
import { PublicShell } from '../../layouts/public-shell';

/** /refresh?route=…: restores the session from the refresh cookie, then returns to `route`. */
export default function RefreshRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const route = safeRoute(searchParams.get('route'));

  useEffect(() => {
    let active = true;
    void (async () => {
      const refreshed = await restoreSession();
      if (!active) return;
      // Without a session, the login page keeps the destination for after the login.
      await navigate(refreshed ? route : withRoute('/', route), { replace: true });
    })();
    return () => {
      active = false;
    };
  }, [navigate, route]);

  return (
    <PublicShell>
      <DocumentTitle title="Connexion en cours" />
      <Typography component="h1" variant="h6" sx={{ textAlign: 'center' }}>
        Connexion en cours…
      </Typography>
      <PageLoader label="Reconnexion à votre espace" />
    </PublicShell>
  );
}
