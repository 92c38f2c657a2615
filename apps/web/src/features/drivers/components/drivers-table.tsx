import type { Driver, DriverSortColumn } from '@flotte/contract';
import type { RegisterColumn } from '../../../components/register/register-cells';
import type { RegisterTableDeclaration } from '../../../components/register/register-table';
import { formatPhone } from '../../../lib/format';
import { DRIVER_TEXTS, driverName } from '../utils/driver-texts';

const COLUMNS: readonly RegisterColumn<Driver, DriverSortColumn>[] = [
  { id: 'lastName', label: 'Nom', sortKey: 'lastName', render: (d) => d.lastName, width: '19%', hideOnMobile: true },
  { id: 'firstName', label: 'Prénom', sortKey: 'firstName', render: (d) => d.firstName, width: '19%', hideOnMobile: true },
  { id: 'email', label: 'E-mail', sortKey: 'email', render: (d) => d.email },
  { id: 'phone', label: 'Téléphone', sortKey: 'phone', render: (d) => formatPhone(d.phone), noWrap: true, width: 170 },
];

/** The drivers register: Nom, Prénom, E-mail, Téléphone; a card per driver on a phone, titled by the name. */
export const DRIVERS_TABLE: RegisterTableDeclaration<Driver, DriverSortColumn> = {
  label: DRIVER_TEXTS.list,
  columns: COLUMNS,
  getRowId: (driver) => driver.uuid,
  getRowLabel: driverName,
};
