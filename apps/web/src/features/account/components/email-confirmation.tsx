import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-error';
import { confirmEmailChange } from '../api/account';

/**
 * /account?emailToken=…: the link of the e-mail sent to the new address. The change is confirmed
 * once, the parameter leaves the address bar, and the outcome is told at the top of the page.
 */
export function EmailConfirmation() {
  const [params, setParams] = useSearchParams();
  const token = params.get('emailToken');
  const started = useRef<string | null>(null);
  const [outcome, setOutcome] = useState<{ severity: 'success' | 'error'; message: string } | null>(null);

  useEffect(() => {
    if (!token || started.current === token) return;
    started.current = token;
    confirmEmailChange(token)
      .then((user) => setOutcome({ severity: 'success', message: `C’est fait : vous vous connectez désormais avec ${user.email}.` }))
      .catch((error: unknown) =>
        setOutcome({ severity: 'error', message: error instanceof ApiError && error.status !== 0 ? error.message : 'Le lien n’a pas pu être vérifié. Vérifiez votre connexion puis rouvrez-le.' }),
      )
      .finally(() =>
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.delete('emailToken');
            return next;
          },
          { replace: true },
        ),
      );
  }, [token, setParams]);

  if (token && !outcome) {
    return (
      <Alert severity="info" icon={<CircularProgress size={20} />}>
        Confirmation de votre nouvelle adresse…
      </Alert>
    );
  }
  if (!outcome) return null;
  return (
    <Alert severity={outcome.severity} onClose={() => setOutcome(null)} role={outcome.severity === 'error' ? 'alert' : 'status'}>
      {outcome.message}
    </Alert>
  );
}
