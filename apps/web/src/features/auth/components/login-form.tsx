import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoginBodySchema } from '@flotte/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { ApiError } from '../../../lib/api-error';
import { useLogin } from '../api/login';

type LoginInput = z.input<typeof LoginBodySchema>;
type LoginOutput = z.output<typeof LoginBodySchema>;

const FIELDS = new Set<string>(['email', 'password']);

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const [showPassword, setShowPassword] = useState(false);
  const login = useLogin();
  const { control, handleSubmit, setError } = useForm<LoginInput, unknown, LoginOutput>({
    resolver: zodResolver(LoginBodySchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      await login.mutateAsync(body);
      onSuccess();
    } catch (error) {
      if (error instanceof ApiError) {
        for (const detail of error.details) {
          if (FIELDS.has(detail.path)) setError(detail.path as keyof LoginInput, { message: detail.message });
        }
      }
    }
  });

  const apiMessage = login.error
    ? login.error instanceof ApiError
      ? login.error.message
      : 'Connexion impossible. Veuillez réessayer.'
    : null;

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      {apiMessage && (
        <Alert severity="error" role="alert">
          {apiMessage}
        </Alert>
      )}
      <FormTextField control={control} name="email" label="Adresse e-mail" type="email" autoComplete="email" autoFocus required />
      <FormTextField
        control={control}
        name="password"
        label="Mot de passe"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
        required
        slotProps={{
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  aria-label={showPassword ? 'Masquer le mot de passe' : 'Afficher le mot de passe'}
                  onClick={() => setShowPassword((shown) => !shown)}
                  edge="end"
                >
                  {showPassword ? <VisibilityOff /> : <Visibility />}
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: -1 }}>
        <Link component={RouterLink} to="/recover" variant="body2">
          Mot de passe oublié ?
        </Link>
      </Box>
      <Button type="submit" variant="contained" size="large" loading={login.isPending}>
        Se connecter
      </Button>
      <Box sx={{ textAlign: 'center', typography: 'body2', color: 'text.secondary' }}>
        Pas encore de compte ?{' '}
        <Link component={RouterLink} to="/signup" sx={{ fontWeight: 600 }}>
          Créer un compte
        </Link>
      </Box>
    </Box>
  );
}
