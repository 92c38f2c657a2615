import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { User } from '@flotte/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { useAuth } from '../../lib/auth-store';
import { withRoute } from '../../lib/safe-route';
import { loadCurrentUser } from '../../lib/session';

/**
 * Login guard of the logged and root layouts: without a token, go to /refresh with the full
 * current path (the refresh cookie may still hold a session); then load the user if needed.
 */
export function RequireAuth({ children }: { children: (user: User) => ReactNode }) {
  const { token, user, loggedOut } = useAuth();
  const location = useLocation();
  const [attempt, setAttempt] = useState(0);
  const [failedAttempt, setFailedAttempt] = useState(-1);

  useEffect(() => {
    if (!token || user) return;
    let active = true;
    void loadCurrentUser().then((loaded) => {
      if (active && !loaded) setFailedAttempt(attempt);
    });
    return () => {
      active = false;
    };
  }, [token, user, attempt]);

  if (!token) {
    const target = loggedOut ? '/' : withRoute('/refresh', `${location.pathname}${location.search}`);
    return <Navigate to={target} replace />;
  }
  if (user) return children(user);
  if (failedAttempt === attempt) {
    return (
      <Box component="main" sx={{ p: 4, maxWidth: 560, mx: 'auto' }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => setAttempt((n) => n + 1)}>
              Réessayer
            </Button>
          }
        >
          Impossible de charger votre compte. Vérifiez votre connexion puis réessayez.
        </Alert>
      </Box>
    );
  }
  return <PageLoader label="Chargement de votre compte…" fullScreen />;
}
