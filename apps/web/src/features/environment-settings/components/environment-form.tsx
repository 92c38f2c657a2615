import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { zodResolver } from '@hookform/resolvers/zod';
import { EnvironmentSettingsBodySchema, type Environment } from '@flotte/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { useUpdateEnvironment } from '../api/environment-settings';

type Input = z.input<typeof EnvironmentSettingsBodySchema>;
type Output = z.output<typeof EnvironmentSettingsBodySchema>;
const FIELDS = ['title', 'refererEmail', 'bookingUrl'] as const;

const toFormValues = (environment: Environment): Input => ({
  title: environment.title,
  refererEmail: environment.refererEmail ?? '',
  bookingUrl: environment.bookingUrl ?? '',
});

/** The environment's name, referent e-mail and booking link (PATCH /api/environment/{uuid}). */
export function EnvironmentForm({ environment }: { environment: Environment }) {
  const update = useUpdateEnvironment(environment.uuid);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isDirty },
  } = useForm<Input, unknown, Output>({ resolver: zodResolver(EnvironmentSettingsBodySchema), defaultValues: toFormValues(environment) });

  const onSubmit = handleSubmit(async (body) => {
    try {
      const saved = await update.mutateAsync(body);
      reset(toFormValues(saved));
      snackbar.show({ type: 'success', title: 'Paramètres enregistrés', description: 'Vos clients voient désormais ces informations.' });
    } catch (error) {
      const apiError = error instanceof ApiError ? error : null;
      setServerFieldErrors(error, setError, FIELDS);
      snackbar.show({ type: 'error', title: 'Paramètres non enregistrés', description: apiError?.message ?? 'Réessayez dans un instant.' });
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      <FormTextField control={control} name="title" label="Nom de l’environnement" required helperText="Affiché dans le menu tant qu’aucune organisation n’est choisie" />
      <FormTextField
        control={control}
        name="refererEmail"
        label="E-mail du référent"
        type="email"
        autoComplete="email"
        placeholder="contact@votre-cabinet.fr"
        helperText="L’adresse de contact de votre cabinet"
      />
      <FormTextField
        control={control}
        name="bookingUrl"
        label="Lien de prise de rendez-vous"
        type="url"
        placeholder="https://…"
        helperText="Une adresse https://…, proposée par « Aide et support » quand aucun superadmin n’est là pour répondre"
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, flexWrap: 'wrap' }}>
        <Button disabled={!isDirty || update.isPending} onClick={() => reset(toFormValues(environment))}>
          Annuler les modifications
        </Button>
        <Button type="submit" variant="contained" loading={update.isPending} disabled={!isDirty}>
          Enregistrer
        </Button>
      </Box>
    </Box>
  );
}
