import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { VEHICULE_SORT_COLUMNS, type Vehicule } from '@flotte/contract';
import { useState } from 'react';
import { DocumentTitle } from '../../../components/document-title';
import { ArchiveFilter } from '../../../components/register/archive-filter';
import { ConfirmDialog } from '../../../components/register/confirm-dialog';
import { archiveWithUndo, showActionError } from '../../../components/register/register-actions';
import { SearchField } from '../../../components/register/search-field';
import { useListSearchParams } from '../../../components/register/use-list-search-params';
import { useRegisterPage } from '../../../components/register/use-register-page';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useArchiveVehicule } from '../../../features/vehicules/api/archive-vehicule';
import { useDeleteVehicule } from '../../../features/vehicules/api/delete-vehicule';
import { useVehicules } from '../../../features/vehicules/api/get-vehicules';
import { useRestoreVehicule } from '../../../features/vehicules/api/restore-vehicule';
import { vehiculesFilters } from '../../../features/vehicules/api/update-vehicules-category';
import { useUpdateVehicule } from '../../../features/vehicules/api/update-vehicule';
import { BulkCategoryButton } from '../../../features/vehicules/components/bulk-category-button';
import { VehiculeArchiveDialog } from '../../../features/vehicules/components/vehicule-archive-dialog';
import { VehiculeDetailsDialog } from '../../../features/vehicules/components/vehicule-details-dialog';
import { VehiculeFormDialog } from '../../../features/vehicules/components/vehicule-form-dialog';
import { CategoryFilter, PeriodFilter } from '../../../features/vehicules/components/vehicules-filters';
import { VehiculesTable, vehiculeName } from '../../../features/vehicules/components/vehicules-table';
import { ApiError } from '../../../lib/api-error';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatDate, plural } from '../../../lib/format';
import { canHardDelete } from '../../../lib/permissions';

export default function VehiculesRoute() {
  const user = useCurrentUser();
  const list = useListSearchParams({
    sortColumns: VEHICULE_SORT_COLUMNS,
    defaultSort: 'immatriculation',
    filters: { types: '', start: '', end: '' },
  });
  const query = useVehicules(list.apiQuery);
  const vehicules = useRegisterPage(query, list);
  const archive = useArchiveVehicule();
  const restore = useRestoreVehicule();
  const update = useUpdateVehicule();
  const remove = useDeleteVehicule();

  const [form, setForm] = useState<{ open: boolean; vehicule?: Vehicule }>({ open: false });
  const [viewed, setViewed] = useState<Vehicule | null>(null);
  const [toArchive, setToArchive] = useState<Vehicule | null>(null);
  // Kept after closing, so the title does not change while the dialog fades out.
  const [toDelete, setToDelete] = useState<{ open: boolean; vehicule?: Vehicule }>({ open: false });
  const closeDelete = () => setToDelete((current) => ({ ...current, open: false }));

  const openCreate = () => setForm({ open: true });
  const hasNoVehicule = vehicules.nbInActivity + vehicules.nbOfArchived === 0;
  const { types, start, end } = list.filters;
  const hasFilters = Boolean(types || start || end);

  const onConfirmArchive = async (vehicule: Vehicule, exitDate: string) => {
    let failure: unknown;
    const archived = await archiveWithUndo({
      archive: () =>
        archive.mutateAsync({ uuid: vehicule.uuid, exitDate }).catch((error: unknown) => {
          failure = error;
          throw error;
        }),
      // 'Annuler' puts the vehicle back as it was: in the fleet, with its former exit date (usually none).
      restore: async () => {
        await restore.mutateAsync(vehicule.uuid);
        if (vehicule.exitDate !== exitDate) await update.mutateAsync({ uuid: vehicule.uuid, body: { exitDate: vehicule.exitDate } });
      },
      archivedTitle: 'Véhicule archivé',
      archivedDescription: `${vehiculeName(vehicule)} ne figure plus parmi les véhicules actifs. Sortie de la flotte : ${formatDate(exitDate)}.`,
      restoredTitle: 'Véhicule restauré',
      restoredDescription: `${vehiculeName(vehicule)} figure de nouveau parmi les véhicules actifs.`,
    });
    // The dialog shows the API's word on the exit date under its field.
    if (!archived && failure instanceof ApiError && failure.details.some((detail) => detail.path === 'exitDate')) throw failure;
    return archived;
  };

  const onRestore = (vehicule: Vehicule) =>
    restore.mutateAsync(vehicule.uuid).then(
      (restored) =>
        snackbar.show({
          type: 'success',
          title: 'Véhicule restauré',
          description: restored.exitDate
            ? `${vehiculeName(vehicule)} figure de nouveau parmi les véhicules actifs. Sa date de sortie (${formatDate(restored.exitDate)}) est conservée : modifiez-la s’il revient dans la flotte.`
            : `${vehiculeName(vehicule)} figure de nouveau parmi les véhicules actifs.`,
          duration: restored.exitDate ? 6000 : undefined,
        }),
      (error: unknown) => showActionError(error),
    );

  const onConfirmDelete = async (vehicule: Vehicule) => {
    try {
      await remove.mutateAsync(vehicule.uuid);
    } catch (error) {
      showActionError(error);
      throw error;
    }
    closeDelete();
    snackbar.show({ type: 'success', title: 'Véhicule supprimé définitivement', description: vehiculeName(vehicule) });
  };

  return (
    <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
      <DocumentTitle title="Véhicules" />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography component="h1" variant="h4">
            Véhicules
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5, minHeight: '1.5em' }}>
            {!vehicules.loading &&
              `${plural(vehicules.nbInActivity, 'véhicule actif', 'véhicules actifs')} · ${plural(vehicules.nbOfArchived, 'archivé')}`}
          </Typography>
        </Box>
        <Button variant="contained" startIcon={<Add />} onClick={openCreate} sx={{ flexShrink: 0 }}>
          Ajouter un véhicule
        </Button>
      </Box>

      <Box sx={{ display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <Box sx={{ flex: '1 1 280px', maxWidth: { sm: 420 } }}>
            <SearchField
              value={list.search}
              onChange={list.setSearch}
              label="Rechercher un véhicule"
              placeholder="Immatriculation, marque ou modèle"
            />
          </Box>
          <Box sx={{ flex: { xs: '1 1 100%', sm: '0 1 260px' }, minWidth: 0 }}>
            <CategoryFilter value={types} onChange={(value) => list.setFilter('types', value)} />
          </Box>
          <ArchiveFilter
            value={list.archive}
            onChange={list.setArchive}
            label="Statut des véhicules"
            counts={{ active: vehicules.nbInActivity, archived: vehicules.nbOfArchived }}
          />
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <PeriodFilter start={start} end={end} onChange={(period) => list.setFilters(period)} />
          {/* Level with the date fields, under the period's caption, even when a date error shows. */}
          <Box sx={{ pt: { xs: 0, sm: 3 } }}>
            <BulkCategoryButton
              filters={vehiculesFilters(list.apiQuery)}
              total={vehicules.total}
              totalIsCapped={query.data?.totalIsCapped}
              isFiltered={list.isFiltered}
              disabled={vehicules.loading || vehicules.fetching || vehicules.error !== null}
            />
          </Box>
        </Box>
      </Box>

      <VehiculesTable
        rows={vehicules.rows}
        total={vehicules.total}
        totalIsCapped={vehicules.totalIsCapped}
        loading={vehicules.loading}
        fetching={vehicules.fetching}
        error={vehicules.error}
        onRetry={vehicules.retry}
        page={list.page}
        onPageChange={list.setPage}
        sortBy={list.sortBy}
        onSortChange={list.setSortBy}
        search={list.search}
        isFiltered={list.isFiltered}
        onClearSearch={() => list.setSearch('')}
        empty={{
          text: hasNoVehicule
            ? 'Aucun véhicule pour le moment. Ajoutez votre premier véhicule.'
            : 'Aucun véhicule actif. Ajoutez un véhicule ou retrouvez les anciens dans « Archivés ».',
          action: (
            <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
              Ajouter un véhicule
            </Button>
          ),
          filteredText: hasFilters
            ? 'Aucun véhicule ne correspond à ces filtres. Modifiez les catégories ou la période.'
            : list.archive === 'archived'
              ? 'Aucun véhicule archivé.'
              : undefined,
          filteredAction: hasFilters ? (
            <Button onClick={() => list.setFilters({ types: '', start: '', end: '' })}>Effacer les filtres</Button>
          ) : list.archive === 'archived' ? (
            <Button onClick={() => list.setArchive('active')}>Voir les véhicules actifs</Button>
          ) : undefined,
        }}
        onView={setViewed}
        onEdit={(vehicule) => setForm({ open: true, vehicule })}
        onArchive={setToArchive}
        onRestore={(vehicule) => void onRestore(vehicule)}
        onDelete={canHardDelete(user) ? (vehicule) => setToDelete({ open: true, vehicule }) : undefined}
      />

      <VehiculeFormDialog open={form.open} vehicule={form.vehicule} onClose={() => setForm((current) => ({ ...current, open: false }))} />
      <VehiculeDetailsDialog
        vehicule={viewed}
        onClose={() => setViewed(null)}
        onEdit={(vehicule) => {
          setViewed(null);
          setForm({ open: true, vehicule });
        }}
      />
      <VehiculeArchiveDialog vehicule={toArchive} onConfirm={onConfirmArchive} onClose={() => setToArchive(null)} />
      <ConfirmDialog
        open={toDelete.open}
        title={toDelete.vehicule ? `Supprimer définitivement le véhicule ${vehiculeName(toDelete.vehicule)} ?` : ''}
        description="Cette action est irréversible. Pour un véhicule qui quitte la flotte, préférez « Archiver » : sa date de sortie reste connue."
        confirmLabel="Supprimer définitivement"
        onConfirm={() => (toDelete.vehicule ? onConfirmDelete(toDelete.vehicule) : undefined)}
        onClose={closeDelete}
      />
    </Box>
  );
}
