import ArrowBack from '@mui/icons-material/ArrowBack';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { RecoveryRequestBodySchema, type RecoveryRequestBody } from '@flotte/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { requestRecovery } from '../../../features/auth/api/recovery';
import { ApiError } from '../../../lib/api-error';
import { PublicShell } from '../../layouts/public-shell';

const FAILED = 'La demande n’a pas pu être envoyée. Vérifiez votre connexion puis réessayez.';

/** /recover/email: the address to send the link to; the same answer whether it has an account or not. */
export default function RecoverEmailRoute() {
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<{ email: string; message: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const { control, handleSubmit, setError, formState } = useForm<RecoveryRequestBody>({
    resolver: zodResolver(RecoveryRequestBodySchema),
    defaultValues: { email: params.get('email') ?? '' },
  });

  async function send(email: string) {
    setFailure(null);
    try {
      setSentTo({ email, message: await requestRecovery(email) });
    } catch (error) {
      if (!setServerFieldErrors(error, setError, ['email'])) setFailure(error instanceof ApiError && error.status !== 0 ? error.message : FAILED);
    }
  }

  const onSubmit = handleSubmit(({ email }) => send(email));

  async function resend() {
    if (!sentTo) return;
    setResending(true);
    await send(sentTo.email);
    setResending(false);
  }

  return (
    <PublicShell>
      <DocumentTitle title="Mot de passe oublié" />
      <Typography component="h1" variant="h5" sx={{ mb: 1.5 }}>
        {sentTo ? 'Vérifiez votre messagerie' : 'Mot de passe oublié'}
      </Typography>
      {sentTo ? (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
            <MarkEmailReadOutlined color="primary" sx={{ mt: 0.25 }} />
            <Typography>{sentTo.message}</Typography>
          </Box>
          <Typography color="textSecondary" variant="body2">
            Adresse indiquée : <strong>{sentTo.email}</strong>. Pensez à regarder dans les courriers indésirables. Le lien ne sert qu’une fois ; une nouvelle demande
            remplace la précédente.
          </Typography>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, justifyContent: 'space-between' }}>
            <Button component={Link} to="/" startIcon={<ArrowBack />}>
              Retour à la connexion
            </Button>
            <Button variant="outlined" loading={resending} onClick={() => void resend()}>
              Renvoyer le lien
            </Button>
          </Box>
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
          <Typography color="textSecondary">
            Indiquez l’adresse e-mail de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe.
          </Typography>
          {failure && <Alert severity="error">{failure}</Alert>}
          <FormTextField control={control} name="email" label="Adresse e-mail" type="email" autoComplete="email" autoFocus required fullWidth />
          <Box sx={{ display: 'flex', flexWrap: 'wrap-reverse', gap: 1.5, justifyContent: 'space-between' }}>
            <Button component={Link} to="/" startIcon={<ArrowBack />}>
              Retour à la connexion
            </Button>
            <Button type="submit" variant="contained" loading={formState.isSubmitting}>
              Recevoir le lien
            </Button>
          </Box>
        </Box>
      )}
    </PublicShell>
  );
}
