import ArrowBack from '@mui/icons-material/ArrowBack';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { SIGNUP_LINK_INVALID_MESSAGE, SignupResendBodySchema, type SignupResendBody } from '@flotte/contract';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { confirmSignup, resendConfirmation } from '../../../features/auth/api/signup';
import { ApiError } from '../../../lib/api-error';
import { PublicShell } from '../../layouts/public-shell';

const FAILED = 'La demande n’a pas pu être envoyée. Vérifiez votre connexion puis réessayez.';

const linkRefused = (error: unknown) => error instanceof ApiError && error.status === 400 && error.details.some((detail) => detail.path === 'token');

/** « Renvoyer l'e-mail »: the address (prefilled when known) and the answer, the same for any address. */
function ResendForm({ email, prominent }: { email: string; prominent: boolean }) {
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<SignupResendBody>({
    resolver: zodResolver(SignupResendBodySchema),
    defaultValues: { email },
  });
  const onSubmit = handleSubmit(async (body) => {
    setFailure(null);
    setSent(null);
    try {
      setSent(await resendConfirmation(body.email));
    } catch (error) {
      if (!setServerFieldErrors(error, setError, ['email'])) setFailure(error instanceof ApiError && error.status !== 0 ? error.message : FAILED);
    }
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
      {sent && (
        <Alert severity="success" role="status">
          {sent}
        </Alert>
      )}
      {failure && <Alert severity="error">{failure}</Alert>}
      <FormTextField control={control} name="email" label="Adresse e-mail" type="email" autoComplete="email" required fullWidth />
      <Box sx={{ display: 'flex', flexWrap: 'wrap-reverse', gap: 1.5, justifyContent: 'space-between' }}>
        <Button component={Link} to="/" startIcon={<ArrowBack />}>
          Retour à la connexion
        </Button>
        <Button type="submit" variant={prominent ? 'contained' : 'outlined'} loading={formState.isSubmitting}>
          Renvoyer l’e-mail
        </Button>
      </Box>
    </Box>
  );
}

/** The link of the e-mail: confirms once, signs in, and goes on to the onboarding. */
function Confirming({ token }: { token: string }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    // Once: a second call (React's strict mode) would spend the link and answer « invalide ».
    if (started.current) return;
    started.current = true;
    confirmSignup(token).then(
      () => void navigate('/onboarding', { replace: true }),
      (error: unknown) => setFailure(linkRefused(error) ? SIGNUP_LINK_INVALID_MESSAGE : error instanceof ApiError && error.status !== 0 ? error.message : FAILED),
    );
  }, [token, navigate]);
  if (!failure) {
    return (
      <Box role="status" aria-label="Confirmation de votre adresse…" sx={{ display: 'grid', placeItems: 'center', gap: 2, py: 4 }}>
        <CircularProgress aria-hidden />
        <Typography color="textSecondary">Confirmation de votre adresse…</Typography>
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Alert severity="warning">{failure}</Alert>
      <Typography color="textSecondary">Indiquez votre adresse : nous vous enverrons un nouveau lien, valable 24 heures.</Typography>
      <ResendForm email="" prominent />
    </Box>
  );
}

/**
 * /signup/confirmation: after the signup, what to do (open the e-mail, look in the spam) and
 * « Renvoyer l'e-mail »; with ?token=… (the e-mail's link), the confirmation itself.
 */
export default function SignupConfirmationRoute() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email') ?? '';
  return (
    <PublicShell>
      <DocumentTitle title={token ? 'Confirmation de votre adresse' : 'Vérifiez votre messagerie'} />
      <Typography component="h1" variant="h5" sx={{ mb: 1.5 }}>
        {token ? 'Confirmation de votre adresse' : 'Vérifiez votre messagerie'}
      </Typography>
      {token ? (
        <Confirming token={token} />
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
            <MarkEmailReadOutlined color="primary" sx={{ mt: 0.25 }} />
            <Typography>
              Nous avons envoyé un lien de confirmation{email ? <> à <strong>{email}</strong></> : null}. Ouvrez-le pour activer votre compte : il est valable 24 heures.
            </Typography>
          </Box>
          <Typography color="textSecondary" variant="body2">
            Rien reçu après quelques minutes ? Regardez dans les courriers indésirables (spam), vérifiez l’adresse ci-dessous, puis demandez un nouvel e-mail.
          </Typography>
          <ResendForm email={email} prominent={false} />
        </Box>
      )}
    </PublicShell>
  );
}
