import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { User } from '@flotte/contract';
import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { useAuth } from '../../lib/auth-store';
import { restoreSession } from '../../lib/restore-session';
import { withRoute } from '../../lib/safe-route';
import { loadCurrentUser } from '../../lib/session';

/**
 * Login guard of the logged and root layouts. Without a token, the session is restored in place
 * from the refresh cookie (main.tsx has usually started it already); without a session, the login
 * page, keeping the full current path for after the login. Then the user is loaded if needed.
 */
export function RequireAuth({ children }: { children: (user: User) => ReactNode }) {
  const auth = useAuth();
  // Rendered deferred: when the session arrives, the whole logged page renders in a transition, in
  // slices a phone's main thread can interleave with input, not in one long task (issue 10). The
  // effects read the live state (a user loaded is never asked for again).
  const { token, user, loggedOut } = useDeferredValue(auth);
  const location = useLocation();
  const navigate = useNavigate();
  const [attempt, setAttempt] = useState(0);
  const [failedAttempt, setFailedAttempt] = useState(-1);
  const current = `${location.pathname}${location.search}`;

  useEffect(() => {
    if (auth.token || auth.loggedOut) return;
    let active = true;
    void restoreSession().then((restored) => {
      if (active && !restored) void navigate(withRoute('/', current), { replace: true });
    });
    return () => {
      active = false;
    };
  }, [auth.token, auth.loggedOut, navigate, current]);

  useEffect(() => {
    if (!auth.token || auth.user) return;
    let active = true;
    void loadCurrentUser().then((loaded) => {
      if (active && !loaded) setFailedAttempt(attempt);
    });
    return () => {
      active = false;
    };
  }, [auth.token, auth.user, attempt]);

  if (!token && loggedOut) return <Navigate to="/" replace />;
  if (user && token) return children(user);
  if (token && failedAttempt === attempt) {
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
