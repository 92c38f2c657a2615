import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreateInsuranceIntermediaryBodySchema, isoDate, todayIso } from '@flotte/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormDateField } from '../../../components/form/form-date-field';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { useCreateIntermediary } from '../api/create-intermediary';

/** The API's body with the start date as the date field holds it; the API puts it at noon. */
export const IntermediaryFormSchema = CreateInsuranceIntermediaryBodySchema.extend({
  startDate: z
    .string()
    .nullable()
    .transform((value) => value ?? '')
    .pipe(z.string().min(1, { error: 'La date de début est obligatoire' }))
    .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Date invalide (JJ/MM/AAAA)' }))
    .pipe(isoDate()),
});
type IntermediaryFormInput = z.input<typeof IntermediaryFormSchema>;
type IntermediaryFormOutput = z.output<typeof IntermediaryFormSchema>;

const FIELDS = ['name', 'contactLastName', 'contactFirstName', 'email', 'productionEmail', 'startDate'] as const satisfies readonly (keyof IntermediaryFormInput)[];
const TWO_COLUMNS = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

/** A new intermediary, in charge from its start date (today by default); the previous ones stay in the history. */
export function IntermediaryForm({ onDone }: { onDone: () => void }) {
  const create = useCreateIntermediary();
  const { control, handleSubmit, setError } = useForm<IntermediaryFormInput, unknown, IntermediaryFormOutput>({
    resolver: zodResolver(IntermediaryFormSchema),
    defaultValues: { name: '', contactLastName: '', contactFirstName: '', email: '', productionEmail: '', startDate: todayIso() },
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      await create.mutateAsync(body);
      snackbar.show({ type: 'success', title: 'Intermédiaire enregistré', description: "L'intermédiaire d'assurance a bien été enregistré" });
      onDone();
    } catch (error) {
      setServerFieldErrors(error, setError, FIELDS);
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof ApiError ? error.message : "Erreur lors de l'enregistrement de l'intermédiaire" });
    }
  });

  return (
    <Box component="form" noValidate aria-label="Nouvel intermédiaire" onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      <FormTextField control={control} name="name" label="Nom du cabinet" required autoComplete="organization" />
      <Box sx={TWO_COLUMNS}>
        <FormTextField control={control} name="contactFirstName" label="Prénom du contact" required autoComplete="off" />
        <FormTextField control={control} name="contactLastName" label="Nom du contact" required autoComplete="off" />
      </Box>
      <Box sx={TWO_COLUMNS}>
        <FormTextField control={control} name="email" label="E-mail du contact" type="email" required autoComplete="off" />
        <FormTextField
          control={control}
          name="productionEmail"
          label="E-mail de production"
          type="email"
          required
          autoComplete="off"
          helperText="Reçoit les entrées et sorties de véhicules"
        />
      </Box>
      <FormDateField control={control} name="startDate" label="Date de début" required helperText="L'intermédiaire est en fonction à partir de midi ce jour-là" />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, flexWrap: 'wrap' }}>
        <Button onClick={onDone} disabled={create.isPending}>
          Annuler
        </Button>
        <Button type="submit" variant="contained" loading={create.isPending}>
          Enregistrer l'intermédiaire
        </Button>
      </Box>
    </Box>
  );
}
