import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { normalizePlate, RESPONSIBILITY_RATES, todayIso, type Sinister } from '@flotte/contract';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useCreateSinister } from '../api/create-sinister';
import { useDriverOptions, useVehiculeOptions } from '../api/get-claim-links';
import { useGuarantees } from '../api/get-guarantees';
import { useUpdateSinister } from '../api/update-sinister';
import { personName, sinisterTitle, vehiculeLabel } from '../utils/format-sinister';
import { FormAutocomplete, FormDateField, FormSwitch } from './form-fields';
import {
  SINISTER_FORM_FIELDS,
  SinisterFormSchema,
  toSinisterFormValues,
  type SinisterFormInput,
  type SinisterFormOutput,
} from './sinister-form-schema';

const RATE_LABELS: Record<(typeof RESPONSIBILITY_RATES)[number], string> = {
  0: '0 % (non responsable)',
  25: '25 %',
  50: '50 % (responsabilité partagée)',
  75: '75 %',
  100: '100 % (entièrement responsable)',
};

/** A select whose '' choice ('Inconnu', 'Non renseignée') shows its label rather than an empty box. */
const SHOW_EMPTY_CHOICE = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

type VehiculeOption = { uuid: string; immatriculation: string | null; brand: string | null; model: string | null };
type DriverOption = { uuid: string; firstName: string; lastName: string };

/** The list, plus the claim's current link when the list no longer has it (archived since). */
function withCurrent<T extends { uuid: string }>(options: readonly T[] | undefined, current: T | null | undefined): T[] {
  const list = [...(options ?? [])];
  if (current && !list.some((option) => option.uuid === current.uuid)) list.unshift(current);
  return list;
}

function pickChanged(body: SinisterFormOutput, dirty: Partial<Record<keyof SinisterFormInput, unknown>>): Partial<SinisterFormOutput> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => dirty[name as keyof SinisterFormInput]));
}

export type SinisterFormProps = {
  /** The claim to edit; a new claim without it. */
  sinister?: Sinister;
  onSaved: (sinister: Sinister) => void;
  onCancel: () => void;
};

/** Every field of a claim, checked by the contract's schema; the API's 400 details land on their field. */
export function SinisterForm({ sinister, onSaved, onCancel }: SinisterFormProps) {
  const today = todayIso();
  const create = useCreateSinister();
  const update = useUpdateSinister();
  const vehicules = useVehiculeOptions();
  const drivers = useDriverOptions();
  const guarantees = useGuarantees();
  const pending = create.isPending || update.isPending;
  const {
    control,
    handleSubmit,
    setError,
    formState: { dirtyFields },
  } = useForm<SinisterFormInput, unknown, SinisterFormOutput>({
    resolver: zodResolver(SinisterFormSchema),
    defaultValues: toSinisterFormValues(sinister, today),
  });

  const vehiculeOptions = useMemo<VehiculeOption[]>(() => withCurrent(vehicules.data, sinister?.vehicule), [vehicules.data, sinister]);
  const driverOptions = useMemo<DriverOption[]>(() => withCurrent(drivers.data, sinister?.driver), [drivers.data, sinister]);
  const guaranteeOptions = withCurrent(guarantees.data, sinister?.guarantee);

  const onSubmit = handleSubmit(async (body) => {
    if (sinister && Object.keys(dirtyFields).length === 0) {
      onCancel();
      return;
    }
    try {
      const saved = sinister
        ? // Only what the user changed: the claim keeps, say, the plate it was recorded with.
          await update.mutateAsync({ uuid: sinister.uuid, body: pickChanged(body, dirtyFields) })
        : await create.mutateAsync(body);
      snackbar.show({ type: 'success', title: sinister ? 'Sinistre modifié' : 'Sinistre enregistré', description: sinisterTitle(saved) });
      onSaved(saved);
    } catch (error) {
      setServerFieldErrors(error, setError, SINISTER_FORM_FIELDS);
      showActionError(error, "Erreur lors de l'enregistrement du sinistre");
    }
  });

  const title = sinister ? 'Modifier le sinistre' : 'Déclarer un sinistre';
  const twoColumns = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

  return (
    <Box component="form" noValidate aria-label={title} onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5, pt: 1 }}>
      <Box sx={twoColumns}>
        <FormAutocomplete
          control={control}
          name="vehicule"
          label="Véhicule"
          required
          options={vehiculeOptions}
          getOptionLabel={vehiculeLabel}
          getSearchText={(vehicule) => normalizePlate(vehicule.immatriculation ?? '')}
          loading={vehicules.isPending}
          noOptionsText={vehicules.isError ? 'Impossible de charger les véhicules' : 'Aucun véhicule trouvé'}
          placeholder="Immatriculation, marque ou modèle"
        />
        <FormAutocomplete
          control={control}
          name="driver"
          label="Conducteur"
          options={driverOptions}
          getOptionLabel={personName}
          loading={drivers.isPending}
          noOptionsText={drivers.isError ? 'Impossible de charger les conducteurs' : 'Aucun conducteur trouvé'}
          helperText="Facultatif"
        />
      </Box>
      <Box sx={twoColumns}>
        <FormDateField control={control} name="sinisterDate" label="Date du sinistre" required maxDate={today} />
        <FormTextField
          control={control}
          name="sinisterIntermediateRef"
          label="N° de sinistre"
          autoComplete="off"
          helperText="Facultatif. Référence de l’assureur ou du courtier"
        />
      </Box>
      <Box sx={twoColumns}>
        <FormTextField control={control} name="city" label="Ville" autoComplete="off" helperText="Facultatif. Lieu du sinistre" />
        <FormTextField
          control={control}
          name="guarantee"
          label="Garantie"
          select
          helperText="Garantie mise en jeu"
          slotProps={SHOW_EMPTY_CHOICE}
        >
          <MenuItem value="">Non renseignée</MenuItem>
          {guaranteeOptions.map((guarantee) => (
            <MenuItem key={guarantee.uuid} value={guarantee.uuid}>
              {guarantee.label}
            </MenuItem>
          ))}
        </FormTextField>
      </Box>
      <Box sx={twoColumns}>
        <FormTextField control={control} name="responsibilityRate" label="Taux de responsabilité" select slotProps={SHOW_EMPTY_CHOICE}>
          <MenuItem value="">Inconnu</MenuItem>
          {RESPONSIBILITY_RATES.map((rate) => (
            <MenuItem key={rate} value={String(rate)}>
              {RATE_LABELS[rate]}
            </MenuItem>
          ))}
        </FormTextField>
        <FormTextField
          control={control}
          name="totalCost"
          label="Coût total"
          autoComplete="off"
          placeholder="0,00"
          helperText="Montants réglés et provisions, ex. 1 234,56"
          slotProps={{
            htmlInput: { inputMode: 'decimal' },
            input: { endAdornment: <InputAdornment position="end">€</InputAdornment> },
          }}
        />
      </Box>
      <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
        <Typography component="legend" variant="subtitle2" sx={{ fontWeight: 700, mb: 0.5 }}>
          Circonstances et suivi
        </Typography>
        <Box sx={{ display: 'grid', columnGap: 2.5, rowGap: 0.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <FormSwitch control={control} name="isDeclared" label="Déclaré à l’assureur" />
          <FormSwitch control={control} name="hasHumanInjury" label="Dommages corporels" />
          <FormSwitch control={control} name="damagedVehicule" label="Véhicule endommagé" />
          <FormSwitch control={control} name="isThirdImplicated" label="Tiers impliqué" />
          <FormSwitch
            control={control}
            name="ida"
            label="Convention IDA"
            helperText="Indemnisation directe entre assureurs (dégâts matériels)"
          />
        </Box>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, flexWrap: 'wrap' }}>
        <Button onClick={onCancel} disabled={pending}>
          Annuler
        </Button>
        <Button type="submit" variant="contained" loading={pending}>
          {sinister ? 'Enregistrer' : 'Enregistrer le sinistre'}
        </Button>
      </Box>
    </Box>
  );
}
