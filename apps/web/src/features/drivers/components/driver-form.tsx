import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreateDriverBodySchema, type Driver } from '@flotte/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { formatPhone } from '../../../lib/format';
import { useCreateDriver } from '../api/create-driver';
import { useUpdateDriver } from '../api/update-driver';

type DriverInput = z.input<typeof CreateDriverBodySchema>;
type DriverOutput = z.output<typeof CreateDriverBodySchema>;

const FIELDS = ['firstName', 'lastName', 'email', 'phone'] as const;

function toFormValues(driver?: Driver): DriverInput {
  return {
    firstName: driver?.firstName ?? '',
    lastName: driver?.lastName ?? '',
    email: driver?.email ?? '',
    phone: formatPhone(driver?.phone),
  };
}

export type DriverFormProps = {
  /** The driver to edit; a new driver without it. */
  driver?: Driver;
  onSaved: (driver: Driver) => void;
  onCancel: () => void;
};

/** First name, last name, e-mail and phone of a driver, checked by the contract's schema. */
export function DriverForm({ driver, onSaved, onCancel }: DriverFormProps) {
  const create = useCreateDriver();
  const update = useUpdateDriver();
  const pending = create.isPending || update.isPending;
  const { control, handleSubmit, setError } = useForm<DriverInput, unknown, DriverOutput>({
    resolver: zodResolver(CreateDriverBodySchema),
    defaultValues: toFormValues(driver),
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      const saved = driver ? await update.mutateAsync({ uuid: driver.uuid, body }) : await create.mutateAsync(body);
      snackbar.show({
        type: 'success',
        title: driver ? 'Conducteur modifié' : 'Conducteur ajouté',
        description: `${saved.firstName} ${saved.lastName}`,
      });
      onSaved(saved);
    } catch (error) {
      setServerFieldErrors(error, setError, FIELDS);
      showActionError(error, "Erreur lors de l'enregistrement du conducteur");
    }
  });

  return (
    <Box
      component="form"
      noValidate
      aria-label={driver ? 'Modifier le conducteur' : 'Ajouter un conducteur'}
      onSubmit={(event) => void onSubmit(event)}
      sx={{ display: 'grid', gap: 2.5, pt: 1 }}
    >
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField control={control} name="firstName" label="Prénom" autoComplete="off" required autoFocus />
        <FormTextField control={control} name="lastName" label="Nom" autoComplete="off" required />
      </Box>
      <FormTextField
        control={control}
        name="email"
        label="E-mail"
        type="email"
        autoComplete="off"
        placeholder="prenom.nom@entreprise.fr"
        helperText="Facultatif"
      />
      <FormTextField
        control={control}
        name="phone"
        label="Téléphone"
        type="tel"
        autoComplete="off"
        placeholder="06 12 34 56 78"
        helperText="Facultatif. Format français, ou international avec l’indicatif (+32…)"
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, flexWrap: 'wrap' }}>
        <Button onClick={onCancel} disabled={pending}>
          Annuler
        </Button>
        <Button type="submit" variant="contained" loading={pending}>
          {driver ? 'Enregistrer' : 'Ajouter le conducteur'}
        </Button>
      </Box>
    </Box>
  );
}
