import Box from '@mui/material/Box';
import { CreateDriverBodySchema, type Driver } from '@flotte/contract';
import { FormTextField } from '../../../components/form/form-text-field';
import { RecordForm, TWO_COLUMNS, useRecordForm, type RecordFormProps } from '../../../components/register/record-form';
import { formatPhone } from '../../../lib/format';
import { driversApi } from '../api/drivers-api';
import { DRIVER_TEXTS, driverName } from '../utils/driver-texts';

function toFormValues(driver?: Driver) {
  return { firstName: driver?.firstName ?? '', lastName: driver?.lastName ?? '', email: driver?.email ?? '', phone: formatPhone(driver?.phone) };
}

/** First name, last name, e-mail and phone of a driver, checked by the contract's schema. */
export function DriverForm(props: RecordFormProps<Driver>) {
  const { control, recordForm } = useRecordForm({
    ...props,
    api: driversApi,
    texts: DRIVER_TEXTS,
    schema: CreateDriverBodySchema,
    defaultValues: toFormValues(props.record),
    fields: ['firstName', 'lastName', 'email', 'phone'],
    describe: driverName,
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
    </RecordForm>
  );
}
