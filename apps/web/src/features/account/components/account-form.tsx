import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { zodResolver } from '@hookform/resolvers/zod';
import { UpdateUserBodySchema, type User } from '@flotte/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { formatPhone } from '../../../lib/format';
import { useUpdateCurrentUser } from '../api/update-current-user';

type AccountInput = z.input<typeof UpdateUserBodySchema>;
type AccountOutput = z.output<typeof UpdateUserBodySchema>;
const EDITABLE = ['firstName', 'lastName', 'phone', 'description'] as const;

function toFormValues(user: User): AccountInput {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    phone: formatPhone(user.phone),
    description: user.description ?? '',
  };
}

/** First name, last name, phone and description of the connected user. */
export function AccountForm({ user }: { user: User }) {
  const update = useUpdateCurrentUser();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isDirty },
  } = useForm<AccountInput, unknown, AccountOutput>({
    resolver: zodResolver(UpdateUserBodySchema),
    defaultValues: toFormValues(user),
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      const saved = await update.mutateAsync(body);
      reset(toFormValues(saved));
      snackbar.show({ type: 'success', title: 'Profil mis à jour', description: 'Vos informations ont bien été enregistrées' });
    } catch (error) {
      const apiError = error instanceof ApiError ? error : null;
      setServerFieldErrors(error, setError, EDITABLE);
      snackbar.show({
        type: 'error',
        title: 'Erreur',
        description: apiError?.message ?? "Erreur lors de l'enregistrement de vos informations",
      });
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField control={control} name="firstName" label="Prénom" autoComplete="given-name" required />
        <FormTextField control={control} name="lastName" label="Nom" autoComplete="family-name" required />
      </Box>
      <FormTextField
        control={control}
        name="phone"
        label="Téléphone"
        type="tel"
        autoComplete="tel"
        placeholder="06 12 34 56 78"
        helperText="Format français, ou international avec l’indicatif (+32…)"
      />
      <FormTextField
        control={control}
        name="description"
        label="Description"
        multiline
        minRows={3}
        helperText="Votre fonction, vos disponibilités… (500 caractères max.)"
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        <Button disabled={!isDirty || update.isPending} onClick={() => reset(toFormValues(user))}>
          Annuler les modifications
        </Button>
        <Button type="submit" variant="contained" loading={update.isPending} disabled={!isDirty}>
          Enregistrer
        </Button>
      </Box>
    </Box>
  );
}
