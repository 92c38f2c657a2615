import OpenInNew from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../../lib/api-error';
import { logout } from '../../../lib/session';
import { acceptCgu } from '../api/accept-cgu';

/**
 * Asked once per version of the terms of use (issue 15): a user who has not accepted the version
 * in force accepts it, or signs out. It cannot be dismissed otherwise.
 */
export function CguDialog({ firstTime }: { /** Never accepted any version (else: a new version). */ firstTime: boolean }) {
  const titleId = useId();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function accept() {
    setPending(true);
    setFailure(null);
    try {
      await acceptCgu();
    } catch (error) {
      setFailure(error instanceof ApiError && error.status !== 0 ? error.message : 'Votre accord n’a pas pu être enregistré. Vérifiez votre connexion puis réessayez.');
      setPending(false);
    }
  }

  return (
    <Dialog open aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{firstTime ? 'Conditions générales d’utilisation' : 'Nos conditions d’utilisation évoluent'}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <Typography>
          {firstTime
            ? 'Avant de continuer, prenez connaissance des conditions générales d’utilisation de FlotteAssur et acceptez-les.'
            : 'Une nouvelle version des conditions générales d’utilisation est en vigueur. Prenez-en connaissance et acceptez-la pour continuer à utiliser FlotteAssur.'}
        </Typography>
        <Link component={RouterLink} to="/cgu" target="_blank" rel="noopener" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, justifySelf: 'start' }}>
          Lire les conditions générales d’utilisation
          <OpenInNew fontSize="small" aria-label="(nouvel onglet)" />
        </Link>
        {failure && <Alert severity="error">{failure}</Alert>}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={() => void logout()} disabled={pending}>
          Se déconnecter
        </Button>
        <Button variant="contained" loading={pending} onClick={() => void accept()}>
          J’accepte les conditions
        </Button>
      </DialogActions>
    </Dialog>
  );
}
