import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import type { InsuranceContract } from '@flotte/contract';
import { useFieldArray, useForm } from 'react-hook-form';
import { FormDateField } from '../../../components/form/form-date-field';
import { FormTextField } from '../../../components/form/form-text-field';
import { menuItems } from '../../../components/form/menu-items';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { useGuarantees } from '../api/get-guarantees';
import { useSaveContract } from '../api/save-contract';
import { CONTRACT_FORM_FIELDS, type ContractFormInput, type ContractFormOutput, ContractFormSchema, toContractFormValues } from './contract-form-schema';

const TWO_COLUMNS = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;
const EURO = { input: { endAdornment: <InputAdornment position="end">€</InputAdornment> }, htmlInput: { inputMode: 'decimal' as const } };

export type ContractFormProps = {
  /** The version in force, edited; none: a first contract. */
  current: InsuranceContract | undefined;
  onDone: () => void;
};

/** Insurer, policy number, dates, premium and the guarantees covered with their deductible. */
export function ContractForm({ current, onDone }: ContractFormProps) {
  const save = useSaveContract();
  const guarantees = useGuarantees();
  const { control, handleSubmit, setError } = useForm<ContractFormInput, unknown, ContractFormOutput>({
    resolver: zodResolver(ContractFormSchema),
    defaultValues: toContractFormValues(current),
  });
  const covered = useFieldArray({ control, name: 'guarantees' });
  const choices = (guarantees.data ?? []).map((g) => ({ value: g.uuid, label: g.label }));

  const onSubmit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync(body);
      snackbar.show({ type: 'success', title: 'Contrat enregistré', description: 'La nouvelle version du contrat est en vigueur' });
      onDone();
    } catch (error) {
      setServerFieldErrors(error, setError, CONTRACT_FORM_FIELDS);
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof ApiError ? error.message : "Erreur lors de l'enregistrement du contrat" });
    }
  });

  return (
    <Box component="form" noValidate aria-label="Contrat d'assurance" onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      <Box sx={TWO_COLUMNS}>
        <FormTextField control={control} name="insurer" label="Assureur" required autoComplete="organization" />
        <FormTextField control={control} name="policyNumber" label="Numéro de police" required autoComplete="off" />
      </Box>
      <Box sx={TWO_COLUMNS}>
        <FormDateField control={control} name="startDate" label="Date de début" required />
        <FormDateField control={control} name="renewalDate" label="Échéance" required helperText="Date de renouvellement du contrat" />
      </Box>
      <FormTextField
        control={control}
        name="annualPremium"
        label="Prime annuelle"
        required
        autoComplete="off"
        placeholder="0,00"
        helperText="Toutes taxes comprises, ex. 40 000,00"
        slotProps={EURO}
      />
      <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0, display: 'grid', gap: 1.5 }}>
        <Typography component="legend" variant="subtitle2" sx={{ fontWeight: 700, mb: 1 }}>
          Garanties couvertes et franchises
        </Typography>
        {covered.fields.length === 0 ? (
          <Typography variant="body2" color="textSecondary">
            Aucune garantie renseignée.
          </Typography>
        ) : null}
        {covered.fields.map((field, index) => (
          <Box key={field.id} sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr auto', sm: '2fr 1fr auto' }, alignItems: 'start' }}>
            <FormTextField control={control} name={`guarantees.${index}.guaranteeUuid`} label={`Garantie ${index + 1}`} select required>
              {menuItems(choices)}
            </FormTextField>
            <Box sx={{ gridColumn: { xs: '1 / 2', sm: 'auto' }, gridRow: { xs: 2, sm: 'auto' } }}>
              <FormTextField control={control} name={`guarantees.${index}.deductible`} label="Franchise" required autoComplete="off" placeholder="0,00" slotProps={EURO} fullWidth />
            </Box>
            <IconButton aria-label={`Retirer la garantie ${index + 1}`} onClick={() => covered.remove(index)} sx={{ mt: 1 }}>
              <DeleteOutlined />
            </IconButton>
          </Box>
        ))}
        <Box>
          <Button startIcon={<AddOutlined />} onClick={() => covered.append({ guaranteeUuid: '', deductible: '' })} disabled={guarantees.isPending}>
            Ajouter une garantie
          </Button>
        </Box>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, flexWrap: 'wrap' }}>
        <Button onClick={onDone} disabled={save.isPending}>
          Annuler
        </Button>
        <Button type="submit" variant="contained" loading={save.isPending}>
          Enregistrer le contrat
        </Button>
      </Box>
    </Box>
  );
}
