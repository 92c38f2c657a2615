import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { ChangePasswordFormSchema, type ChangePasswordForm } from '@flotte/contract';
import { useForm, useWatch } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { PasswordStrength } from '../../../components/form/password-strength';
import { usePasswordVisibility } from '../../../components/form/password-visibility';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { changePassword } from '../api/change-password';

const EMPTY: ChangePasswordForm = { currentPassword: '', password: '', confirmation: '' };

/** « Mot de passe » of /account: the current one, the new one twice with its strength; other sessions end. */
export function PasswordForm() {
  const visibility = usePasswordVisibility(true);
  const { control, handleSubmit, reset, setError, formState } = useForm<ChangePasswordForm>({
    resolver: zodResolver(ChangePasswordFormSchema),
    defaultValues: EMPTY,
  });
  const password = useWatch({ control, name: 'password' });

  const onSubmit = handleSubmit(async ({ currentPassword, password: newPassword }) => {
    try {
      await changePassword({ currentPassword, newPassword });
      reset(EMPTY);
      snackbar.show({ type: 'success', title: 'Mot de passe modifié', description: 'Vos sessions sur les autres appareils ont été fermées.' });
    } catch (error) {
      const apiError = error instanceof ApiError ? error : null;
      setServerFieldErrors(error, setError, ['currentPassword'], { newPassword: 'password' });
      snackbar.show({ type: 'error', title: 'Mot de passe inchangé', description: apiError?.message ?? 'Le mot de passe n’a pas pu être modifié. Réessayez.' });
    }
  });

  const { type } = visibility;
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      <Typography color="textSecondary" variant="body2">
        Au moins 12 caractères. Après le changement, vos sessions ouvertes sur d’autres appareils sont fermées.
      </Typography>
      <FormTextField
        control={control}
        name="currentPassword"
        label="Mot de passe actuel"
        type={type}
        autoComplete="current-password"
        required
        slotProps={{ input: { endAdornment: visibility.adornment } }}
      />
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, alignItems: 'start' }}>
        <Box sx={{ display: 'grid', gap: 1 }}>
          <FormTextField control={control} name="password" label="Nouveau mot de passe" type={type} autoComplete="new-password" required />
          <PasswordStrength password={password} />
        </Box>
        <FormTextField control={control} name="confirmation" label="Confirmez le nouveau mot de passe" type={type} autoComplete="new-password" required />
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" loading={formState.isSubmitting}>
          Changer le mot de passe
        </Button>
      </Box>
    </Box>
  );
}
