import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { ChangeEmailBodySchema, EMAIL_CHANGE_LINK_HOURS, type ChangeEmailBody, type User } from '@flotte/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { requestEmailChange } from '../api/account';

type EmailInput = { newEmail: string; currentPassword: string };
const EMPTY: EmailInput = { newEmail: '', currentPassword: '' };

/**
 * « Adresse e-mail » of /account: the new address and the current password; a link goes to the
 * new address (the change applies when it is opened), the current one is told.
 */
export function EmailSection({ user }: { user: User }) {
  const [sent, setSent] = useState<string | null>(null);
  const { control, handleSubmit, reset, setError, formState } = useForm<EmailInput, unknown, ChangeEmailBody>({
    resolver: zodResolver(ChangeEmailBodySchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      const { message } = await requestEmailChange(body);
      reset(EMPTY);
      setSent(message);
    } catch (error) {
      setServerFieldErrors(error, setError, ['newEmail', 'currentPassword']);
      snackbar.show({ type: 'error', title: 'Adresse inchangée', description: error instanceof ApiError ? error.message : 'La demande n’a pas pu être envoyée. Réessayez.' });
    }
  });

  return (
    <SectionCard
      id="adresse-email"
      title="Adresse e-mail"
      description={
        <>
          Vous vous connectez avec <strong>{user.email}</strong>.
        </>
      }
    >
      {sent && (
        <Alert severity="success" onClose={() => setSent(null)}>
          {sent}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
        <Typography variant="body2" color="textSecondary">
          Un lien de confirmation, valable {EMAIL_CHANGE_LINK_HOURS} heures, est envoyé à la nouvelle adresse ; votre adresse actuelle est prévenue.
        </Typography>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, alignItems: 'start' }}>
          <FormTextField control={control} name="newEmail" label="Nouvelle adresse e-mail" type="email" autoComplete="email" required />
          <FormTextField control={control} name="currentPassword" label="Mot de passe actuel" type="password" autoComplete="current-password" required />
        </Box>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            Changer d’adresse
          </Button>
        </Box>
      </Box>
    </SectionCard>
  );
}
