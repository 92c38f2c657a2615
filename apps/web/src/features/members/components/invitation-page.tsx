import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { INVITATION_LINK_INVALID_MESSAGE, InvitationSignupFormSchema, memberRoleLabel, type InvitationPreview, type InvitationSignupForm } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { z } from 'zod';
import { DocumentTitle } from '../../../components/document-title';
import { FormTextField } from '../../../components/form/form-text-field';
import { PasswordStrength } from '../../../components/form/password-strength';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { ApiError } from '../../../lib/api-error';
import { authStore, useAuth } from '../../../lib/auth-store';
import { restoreSession } from '../../../lib/restore-session';
import { withRoute } from '../../../lib/safe-route';
import { logout } from '../../../lib/session';
import { acceptInvitation, checkInvitation, joinInvitation } from '../api/invitation-link';

const FAILED = 'L’invitation n’a pas pu être acceptée. Vérifiez votre connexion puis réessayez.';

type LinkState = { status: 'checking' } | { status: 'valid'; invitation: InvitationPreview } | { status: 'invalid'; message: string };

/** Whether an API error says the link itself is dead (expired, used, cancelled, unknown). */
const linkRefused = (error: unknown) => error instanceof ApiError && error.status === 400 && error.details.some((detail) => detail.path === 'token');
const messageOf = (error: unknown) => (error instanceof ApiError && error.status !== 0 ? error.message : FAILED);

function DeadLink({ message }: { message: string }) {
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Alert severity="warning">{message}</Alert>
      <Button component={RouterLink} to="/" startIcon={<ArrowBack />} sx={{ justifySelf: 'start' }}>
        Retour à la connexion
      </Button>
    </Box>
  );
}

/** A new account for the invited address: names, password (with its strength), the CGU. */
function NewAccountForm({ token, invitation, onDone }: { token: string; invitation: InvitationPreview; onDone: () => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<InvitationSignupForm, unknown, z.output<typeof InvitationSignupFormSchema>>({
    resolver: zodResolver(InvitationSignupFormSchema),
    defaultValues: { firstName: '', lastName: '', password: '', cguAccepted: false as unknown as true },
  });
  const password = useWatch({ control, name: 'password' });

  const onSubmit = handleSubmit(async (fields) => {
    setFailure(null);
    try {
      await acceptInvitation({ token, ...fields });
      onDone();
    } catch (error) {
      if (!setServerFieldErrors(error, setError, ['firstName', 'lastName', 'password', 'cguAccepted'])) setFailure(messageOf(error));
    }
  });

  return (
    <Box component="form" noValidate aria-label="Créer mon compte" onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      <Typography color="textSecondary">
        Créez votre compte pour <strong>{invitation.email}</strong> : cette adresse est confirmée par le lien que vous avez reçu.
      </Typography>
      {failure && <Alert severity="error">{failure}</Alert>}
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField control={control} name="firstName" label="Prénom" autoComplete="given-name" required fullWidth autoFocus />
        <FormTextField control={control} name="lastName" label="Nom" autoComplete="family-name" required fullWidth />
      </Box>
      <Box sx={{ display: 'grid', gap: 1 }}>
        <FormTextField
          control={control}
          name="password"
          label="Mot de passe"
          type="password"
          autoComplete="new-password"
          required
          fullWidth
          helperText="Au moins 12 caractères : une phrase de quelques mots est sûre et facile à retenir"
        />
        <PasswordStrength password={password} />
      </Box>
      <Controller
        control={control}
        name="cguAccepted"
        render={({ field, fieldState }) => (
          <Box>
            <FormControlLabel
              control={<Checkbox checked={field.value === true} onChange={(event) => field.onChange(event.target.checked)} onBlur={field.onBlur} />}
              label={
                <>
                  J’accepte les{' '}
                  <Link component={RouterLink} to="/cgu" target="_blank" rel="noopener">
                    conditions générales d’utilisation
                  </Link>
                </>
              }
            />
            {fieldState.error ? <FormHelperText error>{fieldState.error.message}</FormHelperText> : null}
          </Box>
        )}
      />
      <Button type="submit" variant="contained" loading={formState.isSubmitting} sx={{ justifySelf: { xs: 'stretch', sm: 'end' } }}>
        Créer mon compte et rejoindre {invitation.organization.title}
      </Button>
    </Box>
  );
}

/**
 * /signup?invitation=TOKEN (decision 034): « X vous invite à rejoindre Y », then a new account's
 * form, or for an address that has an account, sign in (and come back here) to accept.
 */
export function InvitationPage({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { token: session, user } = useAuth();
  const [link, setLink] = useState<LinkState>(token ? { status: 'checking' } : { status: 'invalid', message: INVITATION_LINK_INVALID_MESSAGE });
  const [joining, setJoining] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    // A session may live in the refresh cookie (another tab): restored beside the check.
    const restoring = authStore.getState().token ? Promise.resolve(true) : restoreSession().catch(() => false);
    Promise.all([checkInvitation(token, controller.signal), restoring]).then(
      ([invitation]) => setLink({ status: 'valid', invitation }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLink({ status: 'invalid', message: linkRefused(error) ? INVITATION_LINK_INVALID_MESSAGE : messageOf(error) });
      },
    );
    return () => controller.abort();
  }, [token]);

  const arrive = async () => {
    await queryClient.invalidateQueries();
    void navigate('/dashboard', { replace: true });
  };

  const join = async () => {
    setJoining(true);
    setFailure(null);
    try {
      await joinInvitation(token);
      await arrive();
    } catch (error) {
      setJoining(false);
      if (linkRefused(error)) setLink({ status: 'invalid', message: INVITATION_LINK_INVALID_MESSAGE });
      else setFailure(messageOf(error));
    }
  };

  const here = `/signup?${new URLSearchParams({ invitation: token }).toString()}`;

  return (
    <>
      <DocumentTitle title="Invitation" />
      {link.status === 'checking' ? (
        <Box role="status" aria-label="Vérification de l’invitation…" sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
          <CircularProgress aria-hidden />
        </Box>
      ) : link.status === 'invalid' ? (
        <>
          <Typography component="h1" variant="h5" sx={{ mb: 1.5 }}>
            Invitation
          </Typography>
          <DeadLink message={link.message} />
        </>
      ) : (
        <Box sx={{ display: 'grid', gap: 2.5 }}>
          <Box sx={{ display: 'grid', gap: 1 }}>
            <Typography component="h1" variant="h5" sx={{ overflowWrap: 'anywhere' }}>
              {link.invitation.inviterName ? `${link.invitation.inviterName} vous invite à rejoindre ${link.invitation.organization.title}` : `Vous êtes invité à rejoindre ${link.invitation.organization.title}`}
            </Typography>
            <Typography color="textSecondary">
              Rôle proposé : <strong>{memberRoleLabel(link.invitation.role)}</strong>
            </Typography>
          </Box>
          {failure && <Alert severity="error">{failure}</Alert>}
          {session && user ? (
            user.email.toLowerCase() === link.invitation.email ? (
              <Box sx={{ display: 'grid', gap: 2 }}>
                <Typography color="textSecondary">
                  Vous êtes connecté en tant que <strong>{user.email}</strong>.
                </Typography>
                <Button variant="contained" loading={joining} onClick={() => void join()} sx={{ justifySelf: { xs: 'stretch', sm: 'end' } }}>
                  Rejoindre {link.invitation.organization.title}
                </Button>
              </Box>
            ) : (
              <Box sx={{ display: 'grid', gap: 2 }}>
                <Alert severity="warning">
                  Vous êtes connecté avec <strong>{user.email}</strong>, mais cette invitation a été envoyée à <strong>{link.invitation.email}</strong>. Déconnectez-vous, puis
                  connectez-vous avec le compte de l’adresse invitée.
                </Alert>
                <Button variant="outlined" onClick={() => void logout()} sx={{ justifySelf: { xs: 'stretch', sm: 'end' } }}>
                  Se déconnecter
                </Button>
              </Box>
            )
          ) : link.invitation.accountExists ? (
            <Box sx={{ display: 'grid', gap: 2 }}>
              <Typography color="textSecondary">
                Un compte existe déjà pour <strong>{link.invitation.email}</strong> : connectez-vous, vous reviendrez ici pour accepter l’invitation.
              </Typography>
              <Button component={RouterLink} to={withRoute('/', here)} variant="contained" sx={{ justifySelf: { xs: 'stretch', sm: 'end' } }}>
                Se connecter pour accepter
              </Button>
            </Box>
          ) : (
            <NewAccountForm token={token} invitation={link.invitation} onDone={() => void arrive()} />
          )}
        </Box>
      )}
    </>
  );
}
