import Box from '@mui/material/Box';
import { type CreateDriverBody, CreateDriverBodySchema, type Driver, DUPLICATE_DRIVER_DETAIL } from '@flotte/contract';
import { useState } from 'react';
import { RecordDocuments } from '../../../components/documents/record-documents';
import { ConfirmDialog } from '../../../components/register/confirm-dialog';
import { ApiError } from '../../../lib/api-error';
import { FormTextField } from '../../../components/form/form-text-field';
import { RecordForm, TWO_COLUMNS, useRecordForm, type RecordFormProps } from '../../../components/register/record-form';
import { formatPhone } from '../../../lib/format';
import { driversApi } from '../api/drivers-api';
import { DRIVER_TEXTS, driverName } from '../utils/driver-texts';

function toFormValues(driver?: Driver) {
  return { firstName: driver?.firstName ?? '', lastName: driver?.lastName ?? '', email: driver?.email ?? '', phone: formatPhone(driver?.phone) };
}

type Duplicate = { message: string; answer: (create: boolean) => void };

/**
 * First name, last name, e-mail and phone of a driver, checked by the contract's schema. A new
 * driver matching an existing one (same e-mail, or same names and phone) is created only once the
 * user confirms: otherwise the form stays open with the API's message on the field.
 */
export function DriverForm(props: RecordFormProps<Driver>) {
  const [duplicate, setDuplicate] = useState<Duplicate | null>(null);
  const { control, recordForm } = useRecordForm({
    ...props,
    api: driversApi,
    texts: DRIVER_TEXTS,
    schema: CreateDriverBodySchema,
    defaultValues: toFormValues(props.record),
    fields: ['firstName', 'lastName', 'email', 'phone'],
    describe: driverName,
    save: async (body, writes) => {
      if (props.record) return writes.update(props.record.uuid, body);
      try {
        return await writes.create(body);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 409 || !error.details.some((d) => d.path === DUPLICATE_DRIVER_DETAIL)) throw error;
        const create = await new Promise<boolean>((answer) => setDuplicate({ message: error.message, answer }));
        setDuplicate(null);
        if (!create) throw error;
        return writes.create({ ...(body as CreateDriverBody), force: true } as typeof body);
      }
    },
  });

  return (
    <RecordForm {...recordForm}>
      <Box sx={TWO_COLUMNS}>
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
      {/* An edit also shows the record's files: added or taken off at once, not with « Enregistrer ». */}
      {props.record && <RecordDocuments entity="driver" uuid={props.record.uuid} documents={props.record.documents} readOnly={props.record.isArchived} />}
      <ConfirmDialog
        open={duplicate !== null}
        title="Ce conducteur existe peut-être déjà"
        description={`${duplicate?.message ?? ''}. Voulez-vous quand même en créer un second ?`}
        confirmLabel="Créer quand même"
        destructive={false}
        onConfirm={() => duplicate?.answer(true)}
        onClose={() => duplicate?.answer(false)}
      />
    </RecordForm>
  );
}
