import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { Vehicule } from '@flotte/contract';
import type { RecordDetailsProps } from '../../../components/register/record-dialog';
import { Suspense, useState } from 'react';
import { PeriodFilter } from '../../../components/register/period-filter';
import { ArchiveFilter } from '../../../components/register/archive-filter';
import { ExportButton } from '../../../components/register/export-button';
import { lazyComponent, preloadAll } from '../../../components/lazy-component';
import { OpenedOnce } from '../../../components/register/lazy-dialog';
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
import { VEHICULE_NO_FILTERS, VEHICULES_VIEW } from '../../../features/vehicules/vehicules-view';
import { vehiculesFilters } from '../../../features/vehicules/api/update-vehicules-category';
import { vehiculesApi } from '../../../features/vehicules/api/vehicules-api';
import { BulkCategoryButton } from '../../../features/vehicules/components/bulk-category-button';
import { CategoryFilter } from '../../../features/vehicules/components/category-filter';
import { VEHICULES_TABLE } from '../../../features/vehicules/components/vehicules-table';
import { restoredDescription, VEHICULE_TEXTS as TEXTS, vehiculeName } from '../../../features/vehicules/utils/vehicule-texts';
import { useCurrentUser } from '../../../lib/auth-store';
import { canHardDelete } from '../../../lib/permissions';


// Fetched when first opened, or when a button that opens them is hovered, focused or touched.
const VehiculeForm = lazyComponent(() => import('../../../features/vehicules/components/vehicule-form').then((module) => module.VehiculeForm));
// The details list the vehicle's claims (the sinisters feature's ClaimsOf), fetched with them.
const VehiculeDetailsDialog = lazyComponent(() =>
  Promise.all([import('../../../features/vehicules/components/vehicule-details-dialog'), import('../../../features/sinisters/components/claims-of')]).then(
    ([dialog, { ClaimsOf }]) =>
      function VehiculeDetailsWithClaims(props: RecordDetailsProps<Vehicule>) {
        return <dialog.VehiculeDetailsDialog {...props} claims={(uuid) => <ClaimsOf vehicule={uuid} />} />;
      },
  ),
);
// Said in the permanent deletion's confirmation only: out of the list's first load.
const LinkedSinisters = lazyComponent(() => import('../../../features/sinisters/components/linked-sinisters').then((module) => module.LinkedSinisters));
const VehiculeArchiveDialog = lazyComponent(() =>
  import('../../../features/vehicules/components/vehicule-archive-dialog').then((module) => module.VehiculeArchiveDialog),
);

export default function VehiculesRoute() {
  const [toArchive, setToArchive] = useState<Vehicule | null>(null);
  const list = useRegisterList({ api: vehiculesApi, ...listOptions(VEHICULES_VIEW) });
  const actions = useRegisterActions({
    api: vehiculesApi,
    texts: TEXTS,
    name: vehiculeName,
    object: (vehicule) => `le véhicule ${vehiculeName(vehicule)}`,
    canDelete: canHardDelete(useCurrentUser()),
    deleteWarning: 'Pour un véhicule qui quitte la flotte, préférez « Archiver » : sa date de sortie reste connue.',
    deleteDetails: (vehicule) => (
      <Suspense fallback={null}>
        <LinkedSinisters vehicule={vehicule.uuid} />
      </Suspense>
    ),
    onArchive: setToArchive,
    restoredDescription,
    preload: () => preloadAll(VehiculeForm, VehiculeDetailsDialog, VehiculeArchiveDialog, LinkedSinisters),
  });
  const { types, start, end } = list.filters;
  const empty = archiveEmptyState(TEXTS, list, actions.openCreate, actions.preload);

  return (
    <RegisterScreen>
      <RegisterPageHeader
        actions={<ImportButton entity="vehicule" />} texts={TEXTS} summary={list.known ? TEXTS.counts(list.counts) : undefined} onAdd={actions.openCreate} onAddIntent={actions.preload} />
      <Box sx={{ display: 'grid', gap: 2 }}>
        <RegisterToolbar>
          <SearchField {...list.searchField} label={TEXTS.search} placeholder="Immatriculation, marque ou modèle" />
          <Box sx={{ flex: { xs: '1 1 100%', sm: '0 1 260px' }, minWidth: 0 }}>
            <CategoryFilter value={types} onChange={(value) => list.setFilter('types', value)} />
          </Box>
          <ArchiveFilter {...list.archiveFilter} label={TEXTS.status} />
          <ExportButton path="/api/vehicule/export" query={list.apiQuery} what="les véhicules" />
        </RegisterToolbar>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <PeriodFilter legend="Présents dans la flotte" start={start} end={end} onChange={list.setFilters} clearable />
          {/* Level with the date fields, under the period's caption, even when a date error shows. */}
          <Box sx={{ pt: { xs: 0, sm: 3 } }}>
            <BulkCategoryButton
              filters={vehiculesFilters(list.apiQuery)}
              total={list.total}
              totalIsCapped={list.totalIsCapped}
              isFiltered={list.isFiltered}
              disabled={list.loading || list.fetching || list.error !== null}
            />
          </Box>
        </Box>
      </Box>

      <RegisterTable
        {...VEHICULES_TABLE}
        {...list.table}
        {...actions.table}
        empty={
          types || start || end
            ? {
                ...empty,
                filteredText: 'Aucun véhicule ne correspond à ces filtres. Modifiez les catégories ou la période.',
                filteredAction: <Button onClick={() => list.setFilters(VEHICULE_NO_FILTERS)}>Effacer les filtres</Button>,
              }
            : empty
        }
      />
      <RegisterDialogs actions={actions} texts={TEXTS} form={VehiculeForm} details={VehiculeDetailsDialog} />
      <OpenedOnce open={toArchive !== null} onClose={() => setToArchive(null)}>
        <VehiculeArchiveDialog vehicule={toArchive} archiveWithUndo={actions.archiveWithUndo} onClose={() => setToArchive(null)} />
      </OpenedOnce>
    </RegisterScreen>
  );
}
