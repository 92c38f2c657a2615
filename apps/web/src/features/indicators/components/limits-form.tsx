import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import { zodResolver } from '@hookform/resolvers/zod';
import { type DashboardConfig, UpdateDashboardConfigBodySchema, type UpdateDashboardConfigBody } from '@flotte/contract';
import { useForm, type Resolver } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { useUpdateDashboardConfig } from '../api/indicators-api';

type FormValues = { lossRatioPercentage: string; claimFrequencyPercentage: string };
const FIELDS = ['lossRatioPercentage', 'claimFrequencyPercentage'] as const;

const toNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.')));
const contractResolver: Resolver<FormValues, unknown, UpdateDashboardConfigBody> = (values, context, options) =>
  (zodResolver(UpdateDashboardConfigBodySchema) as unknown as Resolver<Record<string, number>, unknown, UpdateDashboardConfigBody>)(
    { lossRatioPercentage: toNumber(values.lossRatioPercentage), claimFrequencyPercentage: toNumber(values.claimFrequencyPercentage) },
    context,
    options as never,
  ) as never;

/** The two thresholds as an administrator edits them, checked by the contract's schema. */
export function LimitsForm({ config }: { config: DashboardConfig }) {
  const update = useUpdateDashboardConfig();
  const { control, handleSubmit, setError, formState } = useForm<FormValues, unknown, UpdateDashboardConfigBody>({
    resolver: contractResolver,
    defaultValues: { lossRatioPercentage: String(config.lossRatioPercentage), claimFrequencyPercentage: String(config.claimFrequencyPercentage) },
  });
  const onSubmit = handleSubmit(async (body) => {
    try {
      await update.mutateAsync(body);
      snackbar.show({ type: 'success', title: 'Limites enregistrées' });
    } catch (error) {
      if (error instanceof ApiError) {
        for (const detail of error.details) {
          const field = FIELDS.find((name) => name === detail.path);
          if (field) setError(field, { type: 'server', message: detail.message });
        }
      }
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof Error ? error.message : "Les limites n'ont pas été enregistrées" });
    }
  });
  const percent = { input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } };
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2, maxWidth: 420 }}>
      <FormTextField control={control} name="lossRatioPercentage" label="Limite du S/P (sinistres / primes)" inputMode="numeric" slotProps={percent} required />
      <FormTextField control={control} name="claimFrequencyPercentage" label="Limite de la fréquence des sinistres" inputMode="numeric" slotProps={percent} required />
      <Box>
        <Button type="submit" variant="contained" loading={update.isPending} disabled={!formState.isDirty}>
          Enregistrer les limites
        </Button>
      </Box>
    </Box>
  );
}
