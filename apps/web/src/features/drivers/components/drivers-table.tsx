import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import type { Driver, DriverSortColumn } from '@flotte/contract';
import {
  RegisterTable,
  type RegisterColumn,
  type RegisterTableProps,
} from '../../../components/register/register-table';
import { formatPhone } from '../../../lib/format';

export function driverName(driver: Pick<Driver, 'firstName' | 'lastName'>): string {
  return `${driver.firstName} ${driver.lastName}`;
}

const COLUMNS: readonly RegisterColumn<Driver, DriverSortColumn>[] = [
  { id: 'lastName', label: 'Nom', sortKey: 'lastName', render: (d) => d.lastName, width: '19%', hideOnMobile: true },
  { id: 'firstName', label: 'Prénom', sortKey: 'firstName', render: (d) => d.firstName, width: '19%', hideOnMobile: true },
  { id: 'email', label: 'E-mail', sortKey: 'email', render: (d) => d.email },
  { id: 'phone', label: 'Téléphone', sortKey: 'phone', render: (d) => formatPhone(d.phone), noWrap: true, width: 170 },
];

export type DriverActions = {
  onView: (driver: Driver) => void;
  onEdit: (driver: Driver) => void;
  onArchive: (driver: Driver) => void;
  onRestore: (driver: Driver) => void;
  /** Only for administrators: the action is left out without it. */
  onDelete?: (driver: Driver) => void;
};

export type DriversTableProps = Omit<
  RegisterTableProps<Driver, DriverSortColumn>,
  'label' | 'columns' | 'getRowId' | 'getRowLabel' | 'onOpenRow' | 'rowActions'
> &
  DriverActions;

/** The drivers register: Nom, Prénom, E-mail, Téléphone and the actions of each driver. */
export function DriversTable({ onView, onEdit, onArchive, onRestore, onDelete, ...table }: DriversTableProps) {
  return (
    <RegisterTable
      {...table}
      label="Liste des conducteurs"
      columns={COLUMNS}
      getRowId={(driver) => driver.uuid}
      getRowLabel={driverName}
      onOpenRow={onView}
      rowActions={(driver) => [
        { label: 'Voir', icon: <VisibilityOutlined fontSize="small" />, onClick: () => onView(driver) },
        { label: 'Modifier', icon: <EditOutlined fontSize="small" />, onClick: () => onEdit(driver) },
        driver.isArchived
          ? { label: 'Restaurer', icon: <UnarchiveOutlined fontSize="small" />, onClick: () => onRestore(driver) }
          : { label: 'Archiver', icon: <ArchiveOutlined fontSize="small" />, onClick: () => onArchive(driver) },
        onDelete && {
          label: 'Supprimer définitivement',
          icon: <DeleteForeverOutlined fontSize="small" />,
          onClick: () => onDelete(driver),
          danger: true,
        },
      ]}
    />
  );
}
