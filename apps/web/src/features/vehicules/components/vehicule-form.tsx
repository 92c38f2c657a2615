import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { checkPlate, CreateVehiculeBodySchema, VEHICULE_TYPES, type Vehicule } from '@flotte/contract';
import { useState } from 'react';
import { useController, type Control } from 'react-hook-form';
import type { z } from 'zod';
import { RecordDocuments } from '../../../components/documents/record-documents';
import { FormDateField } from '../../../components/form/form-date-field';
import { FormTextField } from '../../../components/form/form-text-field';
import { RecordForm, TWO_COLUMNS, useRecordForm, type RecordFormProps } from '../../../components/register/record-form';
import { formatPlate } from '../../../lib/format';
import { createEmptyVehicule } from '../api/create-vehicule';
import { vehiculesApi } from '../api/vehicules-api';
import { VEHICULE_TEXTS, vehiculeName, vehiculeTypeShortLabel } from '../utils/vehicule-texts';
import { PLATE_FONT } from './vehicules-table';

type VehiculeInput = z.input<typeof CreateVehiculeBodySchema>;
type VehiculeOutput = z.output<typeof CreateVehiculeBodySchema>;

const FIELDS = ['immatriculation', 'brand', 'model', 'type', 'circulationDate', 'entryDate', 'exitDate'] as const;

function toFormValues(vehicule?: Vehicule): Partial<VehiculeInput> {
  return {
    immatriculation: formatPlate(vehicule?.immatriculation),
    brand: vehicule?.brand ?? '',
    model: vehicule?.model ?? '',
    type: vehicule?.type ?? undefined,
    circulationDate: vehicule?.circulationDate ?? null,
    entryDate: vehicule?.entryDate ?? null,
    exitDate: vehicule?.exitDate ?? null,
  };
}

/** What the plate will read like, and why it deserves a second look: never a refusal. */
function PlateHelp({ value }: { value: string }) {
  const check = checkPlate(value);
  if (check.normalized === '') return <>Ex. AB-123-CD, ou 123 ABC 45 pour une ancienne plaque</>;
  const preview =
    check.kind === 'siv'
      ? `Immatriculation SIV : ${check.display}`
      : check.kind === 'fni'
        ? `Ancienne immatriculation (FNI) : ${check.display}`
        : `Enregistrée telle quelle : ${check.display}`;
  return (
    <Box component="span" sx={{ display: 'grid', gap: 0.25 }}>
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
        {!check.warning && <CheckCircleOutlined sx={{ fontSize: 16, color: 'success.main' }} aria-hidden />}
        <span>{preview}</span>
      </Box>
      {check.warning && (
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'flex-start', gap: 0.5, color: 'warning.main', fontWeight: 600 }}>
          <WarningAmberRounded sx={{ fontSize: 16, mt: '1px' }} aria-hidden />
          <span>{check.warning}</span>
        </Box>
      )}
    </Box>
  );
}

function PlateField({ control }: { control: Control<VehiculeInput, unknown, VehiculeOutput> }) {
  const { field, fieldState } = useController({ control, name: 'immatriculation' });
  const value = field.value ?? '';
  return (
    <TextField
      name={field.name}
      value={value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      label="Immatriculation"
      required
      autoFocus
      autoComplete="off"
      placeholder="AB-123-CD"
      error={fieldState.invalid}
      helperText={
        <Box component="span" sx={{ display: 'grid', gap: 0.5 }}>
          {fieldState.error?.message && <span>{fieldState.error.message}</span>}
          <Box component="span" aria-live="polite" sx={{ color: 'text.secondary' }}>
            <PlateHelp value={value} />
          </Box>
        </Box>
      }
      slotProps={{
        htmlInput: { autoCapitalize: 'characters', spellCheck: false },
      }}
      // Shown in capitals as typed; the API stores the normalised plate anyway.
      sx={{ '& input': { fontFamily: PLATE_FONT, letterSpacing: '0.04em', textTransform: 'uppercase' } }}
    />
  );
}

function TypeField({ control }: { control: Control<VehiculeInput, unknown, VehiculeOutput> }) {
  const { field, fieldState } = useController({ control, name: 'type' });
  const message = fieldState.error?.message;
  return (
    <TextField
      select
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      label="Catégorie"
      required
      error={fieldState.invalid}
      helperText={message}
    >
      {VEHICULE_TYPES.map((type) => (
        <MenuItem key={type.code} value={type.code}>
          {type.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * Plate, brand, model, category and the three dates of a vehicle, checked by the contract's
 * schema. A new vehicle starts as a draft (POST create-empty) completed by PATCH, like the
 * product's other clients do; a failed save keeps the draft, so the next try completes the same one.
 */
export function VehiculeForm(props: RecordFormProps<Vehicule>) {
  const [draftUuid, setDraftUuid] = useState<string | null>(null);
  const { control, recordForm } = useRecordForm({
    ...props,
    api: vehiculesApi,
    texts: VEHICULE_TEXTS,
    schema: CreateVehiculeBodySchema,
    defaultValues: toFormValues(props.record),
    fields: FIELDS,
    describe: (saved) => `${vehiculeName(saved)} · ${[saved.brand, saved.model].filter(Boolean).join(' ')} · ${vehiculeTypeShortLabel(saved.type)}`,
    save: async (body, { update }) => {
      let uuid = props.record?.uuid ?? draftUuid;
      if (!uuid) {
        uuid = (await createEmptyVehicule()).uuid;
        setDraftUuid(uuid);
      }
      return update(uuid, body);
    },
  });

  return (
    <RecordForm {...recordForm}>
      <PlateField control={control} />
      <Box sx={TWO_COLUMNS}>
        <FormTextField control={control} name="brand" label="Marque" autoComplete="off" required placeholder="Renault" />
        <FormTextField control={control} name="model" label="Modèle" autoComplete="off" required placeholder="Kangoo" />
      </Box>
      <TypeField control={control} />
      <FormDateField control={control} name="circulationDate" label="Date de mise en circulation" helperText="Facultatif. Case B de la carte grise" />
      <FormDateField
        control={control}
        name="entryDate"
        label="Date d’entrée dans la flotte"
        helperText="Facultatif. Avec la date de sortie, elle compte dans la demi-différence"
      />
      <FormDateField control={control} name="exitDate" label="Date de sortie" helperText="Facultatif. Vide tant que le véhicule reste dans la flotte" />
      {/* An edit also shows the record's files: added or taken off at once, not with « Enregistrer ». */}
      {props.record && <RecordDocuments entity="vehicule" uuid={props.record.uuid} documents={props.record.documents} readOnly={props.record.isArchived} />}
    </RecordForm>
  );
}
