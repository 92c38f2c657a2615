import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { zodResolver } from '@hookform/resolvers/zod';
import { IndicatorInputSchema, type Indicator, type IndicatorInput, todayIso } from '@flotte/contract';
import { useForm, type Resolver } from 'react-hook-form';
import { FormDateField } from '../../../components/form/form-date-field';
import { FormTextField } from '../../../components/form/form-text-field';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { parseFrenchNumber } from '../../../lib/french-number';
import { useSaveIndicators } from '../api/indicators-api';

/** What the fields hold: dates as `YYYY-MM-DD` (null when empty), numbers as typed. */
type FormValues = { startDate: string | null; endDate: string | null; motorsCount: string; cashReceived: string };
const FIELDS = ['startDate', 'endDate', 'motorsCount', 'cashReceived'] as const;

export { parseFrenchNumber };

function toInput(values: FormValues) {
  return {
    startDate: values.startDate ?? undefined,
    endDate: values.endDate ?? undefined,
    motorsCount: parseFrenchNumber(values.motorsCount),
    cashReceived: parseFrenchNumber(values.cashReceived),
  };
}

/** The contract's schema checks the typed values once converted: its French messages show under the fields. */
const contractResolver: Resolver<FormValues, unknown, IndicatorInput> = (values, context, options) =>
  (zodResolver(IndicatorInputSchema) as unknown as Resolver<ReturnType<typeof toInput>, unknown, IndicatorInput>)(toInput(values), context, options as never) as never;

const addYearMinusOneDay = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y + 1, m - 1, d - 1)).toISOString().slice(0, 10);
};

/** SPEC 9: a new period starts today (at noon in the original product; a calendar day here) and runs one year. */
export function defaultValues(period?: Indicator, today = todayIso()): FormValues {
  if (period) {
    return { startDate: period.startDate, endDate: period.endDate, motorsCount: String(period.motorsCount), cashReceived: String(period.cashReceived).replace('.', ',') };
  }
  return { startDate: today, endDate: addYearMinusOneDay(today), motorsCount: '', cashReceived: '' };
}

export type IndicatorFormDialogProps = { open: boolean; period?: Indicator; onClose: () => void };

/** Adds or edits one insurance period; the API checks overlaps and says which periods conflict. */
export function IndicatorFormDialog({ open, period, onClose }: IndicatorFormDialogProps) {
  const save = useSaveIndicators();
  const { control, handleSubmit, setError } = useForm<FormValues, unknown, IndicatorInput>({ resolver: contractResolver, defaultValues: defaultValues(period) });

  const onSubmit = handleSubmit(async (input) => {
    try {
      await save.mutateAsync({ currentIndicators: [{ ...input, ...(period ? { uuid: period.uuid } : {}) }] });
      snackbar.show({ type: 'success', title: period ? 'Période modifiée' : 'Période ajoutée' });
      onClose();
    } catch (error) {
      if (error instanceof ApiError) {
        for (const detail of error.details) {
          const field = FIELDS.find((name) => detail.path === `currentIndicators.0.${name}`);
          if (field) setError(field, { type: 'server', message: detail.message });
        }
      }
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof Error ? error.message : "La période n'a pas été enregistrée" });
    }
  });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="indicator-form-title">
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogTitle id="indicator-form-title">{period ? 'Modifier la période' : 'Ajouter une période'}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <FormDateField control={control} name="startDate" label="Date de début" required />
          <FormDateField control={control} name="endDate" label="Date de fin" required />
          <FormTextField control={control} name="motorsCount" label="Nombre de véhicules en début de période" inputMode="numeric" required />
          <FormTextField control={control} name="cashReceived" label="Prime acquise (€)" inputMode="decimal" placeholder="36 600,00" required />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Annuler</Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            Enregistrer
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
