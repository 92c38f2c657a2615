import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { NewPasswordFormSchema, RECOVERY_LINK_INVALID_MESSAGE, type NewPasswordForm, type RecoveryTokenResponse } from '@flotte/contract';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { checkRecoveryLink, resetPassword } from '../../../features/auth/api/recovery';
import { PasswordStrength } from '../../../components/form/password-strength';
import { usePasswordVisibility } from '../../../components/form/password-visibility';
import { ApiError } from '../../../lib/api-error';
import { PublicShell } from '../../layouts/public-shell';

const FAILED = 'Le mot de passe n’a pas pu être enregistré. Vérifiez votre connexion puis réessayez.';

type LinkState = { status: 'checking' } | { status: 'valid'; account: RecoveryTokenResponse } | { status: 'invalid'; message: string };

/** Whether an API error says the link itself is dead (expired, used, unknown). */
const linkRefused = (error: unknown) => error instanceof ApiError && error.status === 400 && error.details.some((detail) => detail.path === 'token');

/** A dead link: why, and the way to a new one. */
function DeadLink({ message }: { message: string }) {
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Alert severity="warning">{message}</Alert>
      <Box sx={{ display: 'flex', flexWrap: 'wrap-reverse', gap: 1.5, justifyContent: 'space-between' }}>
        <Button component={Link} to="/" startIcon={<ArrowBack />}>
          Retour à la connexion
        </Button>
        <Button component={Link} to="/recover/email" variant="contained">
          Demander un nouveau lien
        </Button>
      </Box>
    </Box>
  );
}

/** /recover/password?token=…: the link of the e-mail; a new password typed twice, with its strength. */
export default function RecoverPasswordRoute() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  // Without a token in the URL there is nothing to check: the link is dead from the start.
  const [link, setLink] = useState<LinkState>(token ? { status: 'checking' } : { status: 'invalid', message: RECOVERY_LINK_INVALID_MESSAGE });
  const [failure, setFailure] = useState<string | null>(null);
  const visibility = usePasswordVisibility();
  const { control, handleSubmit, setError, formState } = useForm<NewPasswordForm>({
    resolver: zodResolver(NewPasswordFormSchema),
    defaultValues: { password: '', confirmation: '' },
  });
  const password = useWatch({ control, name: 'password' });

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    checkRecoveryLink(token, controller.signal).then(
      (account) => setLink({ status: 'valid', account }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLink({ status: 'invalid', message: linkRefused(error) ? RECOVERY_LINK_INVALID_MESSAGE : error instanceof ApiError && error.status !== 0 ? error.message : FAILED });
      },
    );
    return () => controller.abort();
  }, [token]);

  const onSubmit = handleSubmit(async (body) => {
    setFailure(null);
    try {
      await resetPassword({ token, ...body });
      void navigate('/recover/confirmation', { replace: true });
    } catch (error) {
      if (linkRefused(error)) setLink({ status: 'invalid', message: RECOVERY_LINK_INVALID_MESSAGE });
      else if (!setServerFieldErrors(error, setError, ['password', 'confirmation'])) setFailure(error instanceof ApiError && error.status !== 0 ? error.message : FAILED);
    }
  });


  return (
    <PublicShell>
      <DocumentTitle title="Nouveau mot de passe" />
      <Typography component="h1" variant="h5" sx={{ mb: 1.5 }}>
        Nouveau mot de passe
      </Typography>
      {link.status === 'checking' ? (
        <Box role="status" aria-label="Vérification du lien…" sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
          <CircularProgress aria-hidden />
        </Box>
      ) : link.status === 'invalid' ? (
        <DeadLink message={link.message} />
      ) : (
        <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
          <Typography color="textSecondary">
            Choisissez le nouveau mot de passe du compte <strong>{link.account.email}</strong> : au moins 12 caractères. Une phrase de quelques mots est sûre et facile à
            retenir.
          </Typography>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Box sx={{ display: 'grid', gap: 1 }}>
            <FormTextField
              control={control}
              name="password"
              label="Nouveau mot de passe"
              type={visibility.type}
              autoComplete="new-password"
              autoFocus
              required
              fullWidth
              slotProps={{ input: { endAdornment: visibility.adornment } }}
            />
            <PasswordStrength password={password} />
          </Box>
          <FormTextField
            control={control}
            name="confirmation"
            label="Confirmez le mot de passe"
            type={visibility.type}
            autoComplete="new-password"
            required
            fullWidth
          />
          <Button type="submit" variant="contained" loading={formState.isSubmitting} sx={{ justifySelf: { xs: 'stretch', sm: 'end' } }}>
            Enregistrer le mot de passe
          </Button>
        </Box>
      )}
    </PublicShell>
  );
}
