import ComputerOutlined from '@mui/icons-material/ComputerOutlined';
import PhoneIphoneOutlined from '@mui/icons-material/PhoneIphoneOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { AccountSession } from '@flotte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { authStore } from '../../../lib/auth-store';
import { formatDateTime } from '../../../lib/format';
import { revokeAllSessions, revokeSession, sessionsQueryOptions } from '../api/account';

const MOBILE = /iPhone|iPad|Android/;

/** « Sessions actives » of /account: each device signed in, its last use; end one, or all (« Se déconnecter partout »). */
export function SessionsSection() {
  const sessions = useQuery(sessionsQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirmAll, setConfirmAll] = useState(false);
  const titleId = useId();

  const revoke = useMutation({
    mutationFn: (session: AccountSession) => revokeSession(session.uuid),
    onSuccess: (_, session) => {
      snackbar.show({ type: 'success', title: 'Session fermée', description: `${session.device} devra se reconnecter.` });
      return queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey });
    },
    onError: (error) => snackbar.show({ type: 'error', title: 'Session non fermée', description: error instanceof ApiError ? error.message : 'Réessayez.' }),
  });

  const everywhere = useMutation({
    mutationFn: revokeAllSessions,
    onSuccess: async () => {
      authStore.clear('logout');
      queryClient.clear();
      await navigate('/', { replace: true });
    },
    onError: (error) => snackbar.show({ type: 'error', title: 'Déconnexion impossible', description: error instanceof ApiError ? error.message : 'Réessayez.' }),
  });

  return (
    <SectionCard
      id="sessions"
      title="Sessions actives"
      description="Les appareils où votre compte est connecté. Fermez une session que vous ne reconnaissez pas."
      action={
        <Button color="error" variant="outlined" onClick={() => setConfirmAll(true)}>
          Se déconnecter partout
        </Button>
      }
    >
      {sessions.isPending ? (
        <Typography color="textSecondary">Chargement des sessions…</Typography>
      ) : sessions.isError ? (
        <Alert severity="error">Les sessions n’ont pas pu être chargées. Rechargez la page.</Alert>
      ) : (
        <List disablePadding aria-label="Sessions actives">
          {sessions.data.data.map((session) => (
            <ListItem
              key={session.uuid}
              divider
              sx={{ px: 0, gap: 1, flexWrap: 'wrap' }}
            >
              <ListItemIcon sx={{ minWidth: 40 }}>{MOBILE.test(session.device) ? <PhoneIphoneOutlined /> : <ComputerOutlined />}</ListItemIcon>
              <ListItemText
                sx={{ flex: '1 1 220px' }}
                primary={
                  <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                    {session.device}
                    {session.current && <Chip size="small" color="primary" label="Cet appareil" />}
                  </Box>
                }
                secondary={`Dernière activité le ${formatDateTime(session.lastUsedAt)} · connectée le ${formatDateTime(session.createdAt)}`}
              />
              {!session.current && (
                <Button size="small" onClick={() => revoke.mutate(session)} disabled={revoke.isPending} aria-label={`Fermer la session ${session.device}`}>
                  Fermer
                </Button>
              )}
            </ListItem>
          ))}
        </List>
      )}
      <Dialog open={confirmAll} onClose={() => setConfirmAll(false)} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>Se déconnecter partout ?</DialogTitle>
        <DialogContent>
          <DialogContentText>Toutes vos sessions seront fermées, celle-ci comprise : vous devrez vous reconnecter sur chaque appareil.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmAll(false)} disabled={everywhere.isPending}>
            Annuler
          </Button>
          <Button color="error" variant="contained" loading={everywhere.isPending} onClick={() => everywhere.mutate()}>
            Se déconnecter partout
          </Button>
        </DialogActions>
      </Dialog>
    </SectionCard>
  );
}
