import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { DRIVER_SORT_COLUMNS, type Driver } from '@flotte/contract';
import { useState } from 'react';
import { DocumentTitle } from '../../../components/document-title';
import { ArchiveFilter } from '../../../components/register/archive-filter';
import { ConfirmDialog } from '../../../components/register/confirm-dialog';
import { archiveWithUndo, showActionError } from '../../../components/register/register-actions';
import { SearchField } from '../../../components/register/search-field';
import { useListSearchParams } from '../../../components/register/use-list-search-params';
import { useRegisterPage } from '../../../components/register/use-register-page';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useArchiveDriver } from '../../../features/drivers/api/archive-driver';
import { useDeleteDriver } from '../../../features/drivers/api/delete-driver';
import { useDrivers } from '../../../features/drivers/api/get-drivers';
import { useRestoreDriver } from '../../../features/drivers/api/restore-driver';
import { DriverDetailsDialog } from '../../../features/drivers/components/driver-details-dialog';
import { DriverFormDialog } from '../../../features/drivers/components/driver-form-dialog';
import { DriversTable, driverName } from '../../../features/drivers/components/drivers-table';
import { useCurrentUser } from '../../../lib/auth-store';
import { plural } from '../../../lib/format';
import { canHardDelete } from '../../../lib/permissions';

export default function DriversRoute() {
  const user = useCurrentUser();
  const list = useListSearchParams({ sortColumns: DRIVER_SORT_COLUMNS, defaultSort: 'lastName' });
  const drivers = useRegisterPage(useDrivers(list.apiQuery), list);
  const archive = useArchiveDriver();
  const restore = useRestoreDriver();
  const remove = useDeleteDriver();

  const [form, setForm] = useState<{ open: boolean; driver?: Driver }>({ open: false });
  const [viewed, setViewed] = useState<Driver | null>(null);
  // Kept after closing, so the title does not change while the dialog fades out.
  const [toDelete, setToDelete] = useState<{ open: boolean; driver?: Driver }>({ open: false });
  const closeDelete = () => setToDelete((current) => ({ ...current, open: false }));

  const openCreate = () => setForm({ open: true });
  const hasNoDriver = drivers.nbInActivity + drivers.nbOfArchived === 0;

  const onArchive = (driver: Driver) =>
    void archiveWithUndo({
      archive: () => archive.mutateAsync(driver.uuid),
      restore: () => restore.mutateAsync(driver.uuid),
      archivedTitle: 'Conducteur archivé',
      archivedDescription: `${driverName(driver)} ne figure plus parmi les conducteurs actifs.`,
      restoredTitle: 'Conducteur restauré',
      restoredDescription: `${driverName(driver)} figure de nouveau parmi les conducteurs actifs.`,
    });

  const onRestore = (driver: Driver) =>
    restore.mutateAsync(driver.uuid).then(
      () =>
        snackbar.show({
          type: 'success',
          title: 'Conducteur restauré',
          description: `${driverName(driver)} figure de nouveau parmi les conducteurs actifs.`,
        }),
      (error: unknown) => showActionError(error),
    );

  const onConfirmDelete = async (driver: Driver) => {
    try {
      await remove.mutateAsync(driver.uuid);
    } catch (error) {
      showActionError(error);
      throw error;
    }
    closeDelete();
    snackbar.show({ type: 'success', title: 'Conducteur supprimé définitivement', description: driverName(driver) });
  };

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <DocumentTitle title="Conducteurs" />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography component="h1" variant="h4">
            Conducteurs
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5, minHeight: '1.5em' }}>
            {!drivers.loading &&
              `${plural(drivers.nbInActivity, 'conducteur actif', 'conducteurs actifs')} · ${plural(drivers.nbOfArchived, 'archivé')}`}
          </Typography>
        </Box>
        <Button variant="contained" startIcon={<Add />} onClick={openCreate} sx={{ flexShrink: 0 }}>
          Ajouter un conducteur
        </Button>
      </Box>

      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Box sx={{ flex: '1 1 280px', maxWidth: { sm: 420 } }}>
          <SearchField
            value={list.search}
            onChange={list.setSearch}
            label="Rechercher un conducteur"
            placeholder="Nom, prénom, e-mail ou téléphone"
          />
        </Box>
        <ArchiveFilter
          value={list.archive}
          onChange={list.setArchive}
          label="Statut des conducteurs"
          counts={{ active: drivers.nbInActivity, archived: drivers.nbOfArchived }}
        />
      </Box>

      <DriversTable
        rows={drivers.rows}
        total={drivers.total}
        totalIsCapped={drivers.totalIsCapped}
        loading={drivers.loading}
        fetching={drivers.fetching}
        error={drivers.error}
        onRetry={drivers.retry}
        page={list.page}
        onPageChange={list.setPage}
        sortBy={list.sortBy}
        onSortChange={list.setSortBy}
        search={list.search}
        isFiltered={list.isFiltered}
        onClearSearch={() => list.setSearch('')}
        empty={{
          text: hasNoDriver
            ? 'Aucun conducteur pour le moment. Ajoutez votre premier conducteur.'
            : 'Aucun conducteur actif. Ajoutez un conducteur ou retrouvez les anciens dans « Archivés ».',
          action: (
            <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
              Ajouter un conducteur
            </Button>
          ),
          filteredText: list.archive === 'archived' ? 'Aucun conducteur archivé.' : undefined,
          filteredAction:
            list.archive === 'archived' ? <Button onClick={() => list.setArchive('active')}>Voir les conducteurs actifs</Button> : undefined,
        }}
        onView={setViewed}
        onEdit={(driver) => setForm({ open: true, driver })}
        onArchive={onArchive}
        onRestore={(driver) => void onRestore(driver)}
        onDelete={canHardDelete(user) ? (driver) => setToDelete({ open: true, driver }) : undefined}
      />

      <DriverFormDialog open={form.open} driver={form.driver} onClose={() => setForm((current) => ({ ...current, open: false }))} />
      <DriverDetailsDialog
        driver={viewed}
        onClose={() => setViewed(null)}
        onEdit={(driver) => {
          setViewed(null);
          setForm({ open: true, driver });
        }}
      />
      <ConfirmDialog
        open={toDelete.open}
        title={toDelete.driver ? `Supprimer définitivement ${driverName(toDelete.driver)} ?` : ''}
        description="Cette action est irréversible."
        confirmLabel="Supprimer définitivement"
        onConfirm={() => (toDelete.driver ? onConfirmDelete(toDelete.driver) : undefined)}
        onClose={closeDelete}
      />
    </Box>
  );
}
