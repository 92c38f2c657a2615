import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MuiLink from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { CGU_VERSION, SignupFormSchema, type SignupForm } from '@flotte/contract';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { FormTextField } from '../../../components/form/form-text-field';
import { PasswordStrength } from '../../../components/form/password-strength';
import { usePasswordVisibility } from '../../../components/form/password-visibility';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { signup } from '../../../features/auth/api/signup';
import { InvitationPage } from '../../../features/members/components/invitation-page';
import { ApiError } from '../../../lib/api-error';
import { PublicShell } from '../../layouts/public-shell';

const FAILED = 'L’inscription n’a pas pu être envoyée. Vérifiez votre connexion puis réessayez.';

/**
 * /signup: a new account (names, e-mail, password with its strength, the CGU ticked). The answer
 * is the same whether the address already has an account: /signup/confirmation says what to do.
 */
export default function SignupRoute() {
  const navigate = useNavigate();
  // An invitation's link (/signup?invitation=…) is the members feature's: it takes this page over
  // here, before the form, with its own call (decisions 033, 034).
  const invitation = useSearchParams()[0].get('invitation');
  const [failure, setFailure] = useState<string | null>(null);
  const visibility = usePasswordVisibility();
  const { control, handleSubmit, setError, formState } = useForm<SignupForm>({
    resolver: zodResolver(SignupFormSchema),
    defaultValues: { firstName: '', lastName: '', email: '', password: '', cgu: false },
  });
  const password = useWatch({ control, name: 'password' });

  const onSubmit = handleSubmit(async ({ cgu: _ticked, ...fields }) => {
    setFailure(null);
    try {
      await signup({ ...fields, cguVersion: CGU_VERSION });
      void navigate(`/signup/confirmation?email=${encodeURIComponent(fields.email)}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        const shown = setServerFieldErrors(error, setError, ['firstName', 'lastName', 'email', 'password']);
        const cgu = error.details.find((detail) => detail.path === 'cguVersion');
        if (cgu) setError('cgu', { message: cgu.message });
        if (!shown && !cgu) setFailure(error.status !== 0 ? error.message : FAILED);
      } else setFailure(FAILED);
    }
  });

  if (invitation !== null) {
    return (
      <PublicShell>
        <InvitationPage token={invitation} />
      </PublicShell>
    );
  }
  return (
    <PublicShell maxWidth={520}>
      <DocumentTitle title="Créer un compte" />
      <Typography component="h1" variant="h5" sx={{ mb: 1 }}>
        Créer un compte
      </Typography>
      <Typography color="textSecondary" sx={{ mb: 2.5 }}>
        Gérez les véhicules, les conducteurs et les sinistres de votre flotte. Vous recevrez un e-mail pour confirmer votre adresse.
      </Typography>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
        {failure && <Alert severity="error">{failure}</Alert>}
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <FormTextField control={control} name="firstName" label="Prénom" autoComplete="given-name" autoFocus required fullWidth />
          <FormTextField control={control} name="lastName" label="Nom" autoComplete="family-name" required fullWidth />
        </Box>
        <FormTextField control={control} name="email" label="Adresse e-mail professionnelle" type="email" autoComplete="email" required fullWidth />
        <Box sx={{ display: 'grid', gap: 1 }}>
          <FormTextField
            control={control}
            name="password"
            label="Mot de passe"
            type={visibility.type}
            autoComplete="new-password"
            required
            fullWidth
            helperText="Au moins 12 caractères : une phrase de quelques mots est sûre et facile à retenir."
            slotProps={{ input: { endAdornment: visibility.adornment } }}
          />
          <PasswordStrength password={password} />
        </Box>
        <Controller
          control={control}
          name="cgu"
          render={({ field, fieldState }) => (
            <FormControl error={Boolean(fieldState.error)} required>
              <FormControlLabel
                control={<Checkbox checked={field.value} onChange={(event) => field.onChange(event.target.checked)} onBlur={field.onBlur} slotProps={{ input: { ref: field.ref, name: field.name } }} />}
                label={
                  <>
                    J’accepte les{' '}
                    <MuiLink component={Link} to="/cgu" target="_blank" rel="noopener">
                      conditions générales d’utilisation
                    </MuiLink>
                  </>
                }
              />
              {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
            </FormControl>
          )}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap-reverse', gap: 1.5, justifyContent: 'space-between', alignItems: 'center' }}>
          <Button component={Link} to="/" startIcon={<ArrowBack />}>
            J’ai déjà un compte
          </Button>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            Créer mon compte
          </Button>
        </Box>
      </Box>
    </PublicShell>
  );
}
