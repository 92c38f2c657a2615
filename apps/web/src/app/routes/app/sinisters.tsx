import Add from '@mui/icons-material/Add';
import FilterList from '@mui/icons-material/FilterList';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Collapse from '@mui/material/Collapse';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { COUNT_CAP, SINISTER_SORT_COLUMNS, todayIso, type Sinister } from '@flotte/contract';
import { useId, useState } from 'react';
import { DocumentTitle } from '../../../components/document-title';
import { ArchiveFilter } from '../../../components/register/archive-filter';
import { ConfirmDialog } from '../../../components/register/confirm-dialog';
import { archiveWithUndo, showActionError } from '../../../components/register/register-actions';
import { SearchField } from '../../../components/register/search-field';
import { useListSearchParams } from '../../../components/register/use-list-search-params';
import { useRegisterPage } from '../../../components/register/use-register-page';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useArchiveSinister } from '../../../features/sinisters/api/archive-sinister';
import { useDeleteSinister } from '../../../features/sinisters/api/delete-sinister';
import { useGuarantees } from '../../../features/sinisters/api/get-guarantees';
import { useSinisters, type SinisterFilter } from '../../../features/sinisters/api/get-sinisters';
import { useRestoreSinister } from '../../../features/sinisters/api/restore-sinister';
import { SinisterDetailsDialog } from '../../../features/sinisters/components/sinister-details-dialog';
import { countActiveFilters, SinisterFilters } from '../../../features/sinisters/components/sinister-filters';
import { SinisterFormDialog } from '../../../features/sinisters/components/sinister-form-dialog';
import { SinistersTable } from '../../../features/sinisters/components/sinisters-table';
import { sinisterPhrase, sinisterTitle } from '../../../features/sinisters/utils/format-sinister';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatDate } from '../../../lib/format';
import { canHardDelete } from '../../../lib/permissions';

/** URL filter → default. The period's defaults move with the calendar, so they stay out of the URL. */
function sinisterFilterDefaults(today: string): Record<SinisterFilter, string> {
  return {
    hasHumanInjury: '',
    damagedVehicule: '',
    isThirdImplicated: '',
    showDeclared: '',
    showNotDeclared: '',
    responsible: '',
    garantee: '',
    // SPEC 9: from 1 January of the current year to today.
    startDate: `${today.slice(0, 4)}-01-01`,
    endDate: today,
  };
}

function countLabel(total: number, capped: boolean, archived: boolean): string {
  const noun = archived ? (total > 1 || capped ? 'sinistres archivés' : 'sinistre archivé') : total > 1 || capped ? 'sinistres' : 'sinistre';
  // French: 0 and 1 take the singular.
  return capped ? `plus de ${COUNT_CAP.toLocaleString('fr-FR')} ${noun}` : `${total.toLocaleString('fr-FR')} ${noun}`;
}

export default function SinistersRoute() {
  const user = useCurrentUser();
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const defaults = sinisterFilterDefaults(todayIso());
  const list = useListSearchParams({ sortColumns: SINISTER_SORT_COLUMNS, defaultSort: '-sinisterDate', filters: defaults });
  const query = useSinisters(list.apiQuery);
  const sinisters = useRegisterPage(query, list);
  const capped = sinisters.error === null && query.data?.totalIsCapped === true;
  const guarantees = useGuarantees();
  const archive = useArchiveSinister();
  const restore = useRestoreSinister();
  const remove = useDeleteSinister();

  const [form, setForm] = useState<{ open: boolean; sinister?: Sinister }>({ open: false });
  const [viewed, setViewed] = useState<Sinister | null>(null);
  // Kept after closing, so the title does not change while the dialog fades out.
  const [toDelete, setToDelete] = useState<{ open: boolean; sinister?: Sinister }>({ open: false });
  const closeDelete = () => setToDelete((current) => ({ ...current, open: false }));
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();

  const openCreate = () => setForm({ open: true });
  const activeFilters = countActiveFilters(list.filters, defaults);
  const period = `du ${formatDate(list.filters.startDate)} au ${formatDate(list.filters.endDate)}`;

  const onArchive = (sinister: Sinister) =>
    void archiveWithUndo({
      archive: () => archive.mutateAsync(sinister.uuid),
      restore: () => restore.mutateAsync(sinister.uuid),
      archivedTitle: 'Sinistre archivé',
      archivedDescription: `Le ${sinisterPhrase(sinister)} ne figure plus parmi les sinistres actifs.`,
      restoredTitle: 'Sinistre restauré',
      restoredDescription: `Le ${sinisterPhrase(sinister)} figure de nouveau parmi les sinistres actifs.`,
    });

  const onRestore = (sinister: Sinister) =>
    restore.mutateAsync(sinister.uuid).then(
      () =>
        snackbar.show({
          type: 'success',
          title: 'Sinistre restauré',
          description: `Le ${sinisterPhrase(sinister)} figure de nouveau parmi les sinistres actifs.`,
        }),
      (error: unknown) => showActionError(error),
    );

  const onConfirmDelete = async (sinister: Sinister) => {
    try {
      await remove.mutateAsync(sinister.uuid);
    } catch (error) {
      showActionError(error);
      throw error;
    }
    closeDelete();
    snackbar.show({ type: 'success', title: 'Sinistre supprimé définitivement', description: sinisterTitle(sinister) });
  };

  const clearButton = (
    <Button onClick={list.clearFilters} sx={{ justifySelf: 'start' }}>
      Effacer les filtres
    </Button>
  );

  const filters = (
    <SinisterFilters filters={list.filters} onChange={list.setFilters} guarantees={guarantees.data} />
  );

  return (
    <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
      <DocumentTitle title="Sinistres" />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography component="h1" variant="h4">
            Sinistres
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5, minHeight: '1.5em' }}>
            {!sinisters.loading && `${countLabel(sinisters.total, capped, list.archive === 'archived')} ${period}`}
          </Typography>
        </Box>
        <Button variant="contained" startIcon={<Add />} onClick={openCreate} sx={{ flexShrink: 0 }}>
          Déclarer un sinistre
        </Button>
      </Box>

      <Box sx={{ display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <Box
            sx={{
              flex: '1 1 260px',
              maxWidth: { sm: 420 },
              // The whole hint fits a phone's width.
              '& input::placeholder': { fontSize: { xs: '0.875rem', sm: 'inherit' } },
            }}
          >
            <SearchField
              value={list.search}
              onChange={list.setSearch}
              label="Rechercher un sinistre"
              placeholder="N° de sinistre, immatriculation ou ville"
            />
          </Box>
          <ArchiveFilter value={list.archive} onChange={list.setArchive} label="Statut des sinistres" />
          {mobile && (
            <Button
              variant="outlined"
              startIcon={
                <Badge badgeContent={activeFilters} color="primary">
                  <FilterList />
                </Badge>
              }
              aria-expanded={filtersOpen}
              aria-controls={filtersId}
              onClick={() => setFiltersOpen((open) => !open)}
              sx={{ bgcolor: 'background.paper' }}
            >
              {activeFilters > 0 ? `Filtres (${activeFilters})` : 'Filtres'}
            </Button>
          )}
        </Box>
        {mobile ? (
          <Collapse in={filtersOpen} id={filtersId}>
            <Card sx={{ p: 2, display: 'grid', gap: 2 }}>
              {filters}
              {activeFilters > 0 && clearButton}
            </Card>
          </Collapse>
        ) : (
          <Box sx={{ display: 'grid', gap: 1 }}>
            {filters}
            {activeFilters > 0 && clearButton}
          </Box>
        )}
      </Box>

      <SinistersTable
        rows={sinisters.rows}
        total={sinisters.total}
        totalIsCapped={sinisters.totalIsCapped}
        loading={sinisters.loading}
        fetching={sinisters.fetching}
        error={sinisters.error}
        onRetry={sinisters.retry}
        page={list.page}
        onPageChange={list.setPage}
        sortBy={list.sortBy}
        onSortChange={list.setSortBy}
        search={list.search}
        isFiltered={list.isFiltered}
        onClearSearch={() => list.setSearch('')}
        empty={{
          text: `Aucun sinistre ${period}. Élargissez la période ou déclarez un sinistre.`,
          action: (
            <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
              Déclarer un sinistre
            </Button>
          ),
          filteredText: list.archive === 'archived' && activeFilters === 0 ? `Aucun sinistre archivé ${period}.` : undefined,
          filteredAction:
            list.archive === 'archived' && activeFilters === 0 ? (
              <Button onClick={() => list.setArchive('active')}>Voir les sinistres actifs</Button>
            ) : (
              <Button onClick={list.clearFilters}>Effacer les filtres</Button>
            ),
        }}
        onView={setViewed}
        onEdit={(sinister) => setForm({ open: true, sinister })}
        onArchive={onArchive}
        onRestore={(sinister) => void onRestore(sinister)}
        onDelete={canHardDelete(user) ? (sinister) => setToDelete({ open: true, sinister }) : undefined}
      />

      <SinisterFormDialog open={form.open} sinister={form.sinister} onClose={() => setForm((current) => ({ ...current, open: false }))} />
      <SinisterDetailsDialog
        sinister={viewed}
        onClose={() => setViewed(null)}
        onEdit={(sinister) => {
          setViewed(null);
          setForm({ open: true, sinister });
        }}
      />
      <ConfirmDialog
        open={toDelete.open}
        title={toDelete.sinister ? `Supprimer définitivement le ${sinisterPhrase(toDelete.sinister)} ?` : ''}
        description="Cette action est irréversible. Le sinistre disparaîtra aussi des statistiques."
        confirmLabel="Supprimer définitivement"
        onConfirm={() => (toDelete.sinister ? onConfirmDelete(toDelete.sinister) : undefined)}
        onClose={closeDelete}
      />
    </Box>
  );
}
