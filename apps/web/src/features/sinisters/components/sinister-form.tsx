import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Typography from '@mui/material/Typography';
import { normalizePlate, RESPONSIBILITY_RATES, SETTLED_STATUSES, SINISTER_STATUS_LABELS, SINISTER_STATUSES, todayIso, type Sinister } from '@flotte/contract';
import { useWatch } from 'react-hook-form';
import { formatEuros } from '../../../lib/format';
import { parseAmountInput } from '../../../lib/amount-input';
import { RecordDocuments } from '../../../components/documents/record-documents';
import { FormDateField } from '../../../components/form/form-date-field';
import { menuItems } from '../../../components/form/menu-items';
import { FormTextField } from '../../../components/form/form-text-field';
import { FormRecordPicker } from '../../../components/record-picker/form-record-picker';
import { pickerTexts } from '../../../components/record-picker/picker-texts';
import { RecordForm, TWO_COLUMNS, useRecordForm, type RecordFormProps } from '../../../components/register/record-form';
import { driverChoices, vehiculeChoices } from '../api/get-claim-links';
import { useGuarantees } from '../api/get-guarantees';
import { sinistersApi } from '../api/sinisters-api';
import { guaranteeChoices, personName, sinisterTitle, vehiculeLabel } from '../utils/format-sinister';
import { SINISTER_TEXTS } from '../utils/sinister-texts';
import { FormSwitch } from './form-fields';
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
const RATE_CHOICES = RESPONSIBILITY_RATES.map((rate) => ({ value: String(rate), label: RATE_LABELS[rate] }));
const STATUS_CHOICES = SINISTER_STATUSES.map((status) => ({ value: status, label: SINISTER_STATUS_LABELS[status] }));
const AMOUNT_SLOTS = {
  htmlInput: { inputMode: 'decimal' },
  input: { endAdornment: <InputAdornment position="end">€</InputAdornment> },
} as const;

/** Paid + reserve as typed, or null while one of them is not an amount. */
function totalOf(paid: string, reserve: string): number | null {
  const amounts = [parseAmountInput(paid) ?? 0, parseAmountInput(reserve) ?? 0];
  return amounts.some(Number.isNaN) ? null : Math.round((amounts[0]! + amounts[1]!) * 100) / 100;
}

/** A select whose '' choice ('Inconnu', 'Non renseignée') shows its label rather than an empty box. */
const SHOW_EMPTY_CHOICE = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

const VEHICULE_PICKER_TEXTS = pickerTexts({ one: 'véhicule' });
const DRIVER_PICKER_TEXTS = pickerTexts({ one: 'conducteur' });

/** The list, plus the claim's current link when the list no longer has it (archived since). */
function withCurrent<T extends { uuid: string }>(options: readonly T[] | undefined, current: T | null | undefined): T[] {
  const list = [...(options ?? [])];
  if (current && !list.some((option) => option.uuid === current.uuid)) list.unshift(current);
  return list;
}

/** The claim's vehicle and driver as the pickers show them, from what the claim carries. */
function currentLinks(sinister: Sinister | undefined) {
  const vehicule = sinister?.vehicule;
  const driver = sinister?.driver;
  return {
    vehicule: vehicule ? { ...vehicule, immatriculation: vehicule.immatriculation ?? sinister.immatriculation ?? '' } : null,
    // The claim does not carry the driver's phone: the picker shows a name only.
    driver: driver ? { ...driver, phone: null } : null,
  };
}

function pickChanged(body: SinisterFormOutput, dirty: Partial<Record<keyof SinisterFormInput, unknown>>): Partial<SinisterFormOutput> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => dirty[name as keyof SinisterFormInput]));
}

/** Every field of a claim, checked by the contract's schema; the API's 400 details land on their field. */
export function SinisterForm(props: RecordFormProps<Sinister>) {
  const sinister = props.record;
  const today = todayIso();
  const guarantees = useGuarantees();
  const {
    control,
    recordForm,
    // Read here, so the form keeps it up to date for the save below.
    formState: { dirtyFields },
  } = useRecordForm({
    ...props,
    api: sinistersApi,
    texts: SINISTER_TEXTS,
    schema: SinisterFormSchema,
    defaultValues: toSinisterFormValues(sinister, today),
    fields: SINISTER_FORM_FIELDS,
    describe: sinisterTitle,
    // An edit sends only what the user changed: the claim keeps, say, the plate it was recorded with.
    save: (body, { create, update }): Promise<Sinister | undefined> => {
      if (!sinister) return create(body);
      return Object.keys(dirtyFields).length === 0 ? Promise.resolve(undefined) : update(sinister.uuid, pickChanged(body, dirtyFields));
    },
  });

  const [status, paid, reserve] = useWatch({ control, name: ['status', 'paidAmount', 'reserveAmount'] });
  const settled = SETTLED_STATUSES.includes(status as Sinister['status']);
  const total = totalOf(paid, reserve);
  const current = currentLinks(sinister);
  const guaranteeOptions = withCurrent(guarantees.data, sinister?.guarantee);

  return (
    <RecordForm {...recordForm}>
      <Box sx={TWO_COLUMNS}>
        <FormRecordPicker
          control={control}
          name="vehicule"
          label="Véhicule"
          required
          choices={vehiculeChoices}
          current={current.vehicule}
          getOptionLabel={vehiculeLabel}
          getSearchText={(vehicule) => normalizePlate(vehicule.immatriculation)}
          texts={VEHICULE_PICKER_TEXTS}
          placeholder="Immatriculation, marque ou modèle"
        />
        <FormRecordPicker
          control={control}
          name="driver"
          label="Conducteur"
          choices={driverChoices}
          current={current.driver}
          getOptionLabel={personName}
          texts={DRIVER_PICKER_TEXTS}
          helperText="Facultatif"
        />
      </Box>
      <Box sx={TWO_COLUMNS}>
        <FormDateField control={control} name="sinisterDate" label="Date du sinistre" required maxDate={today} />
        <FormTextField
          control={control}
          name="sinisterIntermediateRef"
          label="N° de sinistre"
          autoComplete="off"
          helperText="Facultatif. Référence de l’assureur ou du courtier"
        />
      </Box>
      <Box sx={TWO_COLUMNS}>
        <FormTextField control={control} name="city" label="Ville" autoComplete="off" helperText="Facultatif. Lieu du sinistre" />
        <FormTextField
          control={control}
          name="guarantee"
          label="Garantie"
          select
          helperText="Garantie mise en jeu"
          slotProps={SHOW_EMPTY_CHOICE}
        >
          {menuItems(guaranteeChoices(guaranteeOptions), 'Non renseignée')}
        </FormTextField>
      </Box>
      <Box sx={TWO_COLUMNS}>
        <FormTextField control={control} name="responsibilityRate" label="Taux de responsabilité" select slotProps={SHOW_EMPTY_CHOICE}>
          {menuItems(RATE_CHOICES, 'Inconnu')}
        </FormTextField>
      </Box>
      <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0, display: 'grid', gap: 2 }}>
        <Typography component="legend" variant="subtitle2" sx={{ fontWeight: 700, mb: 1 }}>
          Suivi du dossier
        </Typography>
        <Box sx={TWO_COLUMNS}>
          <FormTextField control={control} name="status" label="Statut" select required>
            {menuItems(STATUS_CHOICES)}
          </FormTextField>
          <FormDateField control={control} name="openedAt" label="Date d’ouverture" maxDate={today} helperText="Ouverture du dossier" />
        </Box>
        {settled && (
          <Box sx={TWO_COLUMNS}>
            <FormDateField control={control} name="closedAt" label={status === 'refused' ? 'Date du refus' : 'Date de clôture'} required maxDate={today} />
          </Box>
        )}
        <Box sx={TWO_COLUMNS}>
          <FormTextField control={control} name="paidAmount" label="Montant réglé" autoComplete="off" placeholder="0,00" helperText="Déjà payé, ex. 1 234,56" slotProps={AMOUNT_SLOTS} />
          <FormTextField
            control={control}
            name="reserveAmount"
            label="Provision"
            autoComplete="off"
            placeholder="0,00"
            helperText={settled ? 'Un sinistre clos ou refusé n’a plus de provision (0)' : 'Reste à payer estimé'}
            slotProps={AMOUNT_SLOTS}
          />
        </Box>
        <Typography variant="body2" aria-live="polite">
          Coût total (réglé + provision) : <strong>{total === null ? '—' : formatEuros(total)}</strong>
        </Typography>
        <FormTextField control={control} name="description" label="Circonstances" multiline minRows={3} helperText="Facultatif. Ce qui s’est passé, en quelques lignes" />
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
      {/* An edit also shows the record's files: added or taken off at once, not with « Enregistrer ». */}
      {props.record && <RecordDocuments entity="sinister" uuid={props.record.uuid} documents={props.record.documents} readOnly={props.record.isArchived} />}
    </RecordForm>
  );
}
