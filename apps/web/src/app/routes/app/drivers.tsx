import type { Driver } from '@flotte/contract';
import type { RecordDetailsProps } from '../../../components/register/record-dialog';
import { ArchiveFilter } from '../../../components/register/archive-filter';
import { ExportButton } from '../../../components/register/export-button';
import { lazyComponent, preloadAll } from '../../../components/lazy-component';
import { RegisterDialogs } from '../../../components/register/register-dialogs';
import { archiveEmptyState } from '../../../components/register/register-empty-state';
import { RegisterScreen, RegisterToolbar } from '../../../components/register/register-layout';
import { ImportButton } from '../../../features/imports/components/import-button';
import { RegisterPageHeader } from '../../../components/register/register-page-header';
import { RegisterTable } from '../../../components/register/register-table';
import { SearchField } from '../../../components/register/search-field';
import { useRegisterActions } from '../../../components/register/use-register-actions';
import { useRegisterList } from '../../../components/register/use-register-list';
import { listOptions } from '../../../components/register/list-query';
import { DRIVERS_VIEW } from '../../../features/drivers/drivers-view';
import { driversApi } from '../../../features/drivers/api/drivers-api';
import { DRIVERS_TABLE } from '../../../features/drivers/components/drivers-table';
import { DRIVER_TEXTS as TEXTS, driverName } from '../../../features/drivers/utils/driver-texts';
import { LinkedSinisters } from '../../../features/sinisters/components/linked-sinisters';
import { useCurrentUser } from '../../../lib/auth-store';
import { canHardDelete } from '../../../lib/permissions';

// Fetched when first opened, or when a button that opens them is hovered, focused or touched.
const DriverForm = lazyComponent(() => import('../../../features/drivers/components/driver-form').then((module) => module.DriverForm));
// The details list the driver's claims (the sinisters feature's ClaimsOf), fetched with them.
const DriverDetailsDialog = lazyComponent(() =>
  Promise.all([import('../../../features/drivers/components/driver-details-dialog'), import('../../../features/sinisters/components/claims-of')]).then(
    ([dialog, { ClaimsOf }]) =>
      function DriverDetailsWithClaims(props: RecordDetailsProps<Driver>) {
        return <dialog.DriverDetailsDialog {...props} claims={(uuid) => <ClaimsOf driver={uuid} />} />;
      },
  ),
);

export default function DriversRoute() {
  const list = useRegisterList({ api: driversApi, ...listOptions(DRIVERS_VIEW) });
  const actions = useRegisterActions({
    api: driversApi,
    texts: TEXTS,
    name: driverName,
    canDelete: canHardDelete(useCurrentUser()),
    // An erasure (decision 049): the driver's documents go with it.
    deleteWarning: 'Ses documents et leurs fichiers, corbeille comprise, sont supprimés avec lui.',
    deleteDetails: (driver) => <LinkedSinisters driver={driver.uuid} />,
    preload: () => preloadAll(DriverForm, DriverDetailsDialog),
  });

  return (
    <RegisterScreen>
      <RegisterPageHeader
        actions={<ImportButton entity="driver" />} texts={TEXTS} summary={list.known ? TEXTS.counts(list.counts) : undefined} onAdd={actions.openCreate} onAddIntent={actions.preload} />
      <RegisterToolbar>
        <SearchField {...list.searchField} label={TEXTS.search} placeholder="Nom, prénom, e-mail ou téléphone" />
        <ArchiveFilter {...list.archiveFilter} label={TEXTS.status} />
        <ExportButton path="/api/driver/export" query={list.apiQuery} what="les conducteurs" />
      </RegisterToolbar>
      <RegisterTable {...DRIVERS_TABLE} {...list.table} {...actions.table} empty={archiveEmptyState(TEXTS, list, actions.openCreate, actions.preload)} />
      <RegisterDialogs actions={actions} texts={TEXTS} form={DriverForm} details={DriverDetailsDialog} />
    </RegisterScreen>
  );
}
