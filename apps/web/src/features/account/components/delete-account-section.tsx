import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { ACCOUNT_DELETION_WORD, DeleteAccountBodySchema, type DeleteAccountBody, type User } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { SectionCard } from '../../../components/section-card';
import { ApiError } from '../../../lib/api-error';
import { authStore } from '../../../lib/auth-store';
import { deleteAccount } from '../api/account';

type DeleteInput = { currentPassword: string; confirmation: string };
const EMPTY: DeleteInput = { currentPassword: '', confirmation: '' };

/**
 * « Supprimer mon compte » of /account: the current password and the word SUPPRIMER typed. The
 * API refuses the last administrator of an organization (its French message names them).
 */
export function DeleteAccountSection({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const titleId = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { control, handleSubmit, reset, setError, formState } = useForm<DeleteInput, unknown, DeleteAccountBody>({
    resolver: zodResolver(DeleteAccountBodySchema),
    defaultValues: EMPTY,
  });

  const close = () => {
    setOpen(false);
    setRefusal(null);
    reset(EMPTY);
  };

  const onSubmit = handleSubmit(async (body) => {
    setRefusal(null);
    try {
      await deleteAccount(user.uuid, body);
      authStore.clear('logout');
      queryClient.clear();
      await navigate('/', { replace: true });
    } catch (error) {
      if (!setServerFieldErrors(error, setError, ['currentPassword', 'confirmation'])) {
        setRefusal(error instanceof ApiError && error.status !== 0 ? error.message : 'Le compte n’a pas pu être supprimé. Réessayez.');
      }
    }
  });

  return (
    <SectionCard id="suppression" title="Supprimer mon compte" description="Vos données personnelles sont effacées ; celles de vos organisations restent.">
      <Box>
        <Button color="error" variant="outlined" onClick={() => setOpen(true)}>
          Supprimer mon compte
        </Button>
      </Box>
      <Dialog open={open} onClose={formState.isSubmitting ? undefined : close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
        <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <DialogTitle id={titleId}>Supprimer définitivement votre compte ?</DialogTitle>
          <DialogContent sx={{ display: 'grid', gap: 2.5 }}>
            <Typography>
              Votre profil, votre photo et vos sessions seront effacés et vous serez déconnecté. Les véhicules, conducteurs, sinistres et documents de vos organisations restent. Cette action est
              irréversible.
            </Typography>
            {refusal && <Alert severity="error">{refusal}</Alert>}
            <FormTextField control={control} name="currentPassword" label="Mot de passe actuel" type="password" autoComplete="current-password" required />
            <FormTextField
              control={control}
              name="confirmation"
              label={`Tapez ${ACCOUNT_DELETION_WORD} pour confirmer`}
              autoComplete="off"
              required
              slotProps={{ htmlInput: { autoCapitalize: 'characters', spellCheck: false } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={formState.isSubmitting}>
              Annuler
            </Button>
            <Button type="submit" color="error" variant="contained" loading={formState.isSubmitting}>
              Supprimer mon compte
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </SectionCard>
  );
}
