import FilterList from '@mui/icons-material/FilterList';
import FolderZipOutlined from '@mui/icons-material/FolderZipOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { COUNT_CAP, type Sinister } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { AddButton } from '../../../components/register/add-button';
import { ArchiveFilter } from '../../../components/register/archive-filter';
import { ExportButton } from '../../../components/register/export-button';
import { lazyComponent, preloadAll } from '../../../components/lazy-component';
import { RegisterDialogs } from '../../../components/register/register-dialogs';
import { RegisterScreen, RegisterToolbar } from '../../../components/register/register-layout';
import { ImportButton } from '../../../features/imports/components/import-button';
import { RegisterPageHeader } from '../../../components/register/register-page-header';
import { RegisterTable } from '../../../components/register/register-table';
import { SearchField } from '../../../components/register/search-field';
import { useRegisterActions } from '../../../components/register/use-register-actions';
import { useRegisterList } from '../../../components/register/use-register-list';
import { driversApi } from '../../../features/drivers/api/drivers-api';
import { useGuarantees } from '../../../features/sinisters/api/get-guarantees';
import { sinistersApi } from '../../../features/sinisters/api/sinisters-api';
import { SINISTERS_VIEW } from '../../../features/sinisters/sinisters-view';
import { listOptions } from '../../../components/register/list-query';
import { RemovableFilterChip } from '../../../features/sinisters/components/removable-filter-chip';
import { countActiveFilters, SinisterFilters } from '../../../features/sinisters/components/sinister-filters';
import { SINISTERS_TABLE } from '../../../features/sinisters/components/sinisters-table';
import { sinisterPhrase, sinisterTitle } from '../../../features/sinisters/utils/format-sinister';
import { SINISTER_TEXTS as TEXTS } from '../../../features/sinisters/utils/sinister-texts';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatCount, formatDate, formatEuros } from '../../../lib/format';
import { canHardDelete } from '../../../lib/permissions';

function countLabel(total: number, capped: boolean, archived: boolean): string {
  const noun = archived ? (total > 1 || capped ? 'sinistres archivés' : 'sinistre archivé') : total > 1 || capped ? 'sinistres' : 'sinistre';
  // French: 0 and 1 take the singular.
  return capped ? `plus de ${formatCount(COUNT_CAP)} ${noun}` : `${formatCount(total)} ${noun}`;
}

/**
 * The driver filter's words, « Conducteur : Jean Martin »: the name from the page's claims at once,
 * else from GET /api/driver/{uuid} (no claim on the page, an archived driver too); null without the filter.
 */
function useDriverFilterLabel(uuid: string, list: { loading: boolean; rows: readonly Sinister[] }): string | null {
  const fromRows = list.rows.find((row) => row.driver?.uuid === uuid)?.driver;
  // Asked only once the page has answered without the name.
  const detail = useQuery({ ...driversApi.detailQueryOptions(uuid), enabled: uuid !== '' && !list.loading && !fromRows });
  if (!uuid) return null;
  const driver = fromRows ?? detail.data;
  if (driver) return `Conducteur : ${driver.firstName} ${driver.lastName}`;
  // Deleted since, or another organization's: the list is empty and says so.
  return detail.isError ? 'Conducteur introuvable' : 'Conducteur : chargement…';
}

// Fetched when first opened, or when a button that opens them is hovered, focused or touched.
const SinisterForm = lazyComponent(() => import('../../../features/sinisters/components/sinister-form').then((module) => module.SinisterForm));
const SinisterDetailsDialog = lazyComponent(() =>
  import('../../../features/sinisters/components/sinister-details-dialog').then((module) => module.SinisterDetailsDialog),
);

export default function SinistersRoute() {
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const options = listOptions(SINISTERS_VIEW);
  const defaults = options.filters!;
  const list = useRegisterList({ api: sinistersApi, ...options });
  const guarantees = useGuarantees();
  const actions = useRegisterActions({
    api: sinistersApi,
    texts: TEXTS,
    name: sinisterTitle,
    subject: (sinister) => `Le ${sinisterPhrase(sinister)}`,
    object: (sinister) => `le ${sinisterPhrase(sinister)}`,
    canDelete: canHardDelete(useCurrentUser()),
    deleteWarning: 'Le sinistre disparaîtra aussi des statistiques.',
    preload: () => preloadAll(SinisterForm, SinisterDetailsDialog),
    moreActions: (sinister) => [
      {
        label: 'Télécharger le dossier',
        icon: <FolderZipOutlined fontSize="small" />,
        // The download (api-download) is fetched on the first click: the list's first load stays light.
        onClick: () => void import('../../../features/sinisters/api/download-claim-pack').then((module) => module.downloadClaimPack(sinister)),
      },
    ],
  });
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const driverLabel = useDriverFilterLabel(list.filters.driver, list);

  const activeFilters = countActiveFilters(list.filters, defaults);
  const period = `du ${formatDate(list.filters.startDate)} au ${formatDate(list.filters.endDate)}`;
  const archivedOnly = list.archive === 'archived' && activeFilters === 0;
  const clearButton = (
    <Button onClick={list.clearFilters} sx={{ justifySelf: 'start' }}>
      Effacer les filtres
    </Button>
  );
  const filters = (
    <>
      <SinisterFilters filters={list.filters} onChange={list.setFilters} guarantees={guarantees.data} />
      {activeFilters > 0 && clearButton}
    </>
  );

  return (
    <RegisterScreen>
      <RegisterPageHeader
        actions={<ImportButton entity="sinister" />}
        texts={TEXTS}
        // '12 sinistres · 45 300,00 € du 01/01/2026 au 25/11/2026': the count and the total cost (paid and reserves) of the filter, the period on a line of its own on a phone.
        summary={
          !list.known
            ? undefined
            : [`${countLabel(list.total, list.totalIsCapped, list.archive === 'archived')} · ${formatEuros(list.sums.totalCost ?? 0)}`, period]
        }
        onAdd={actions.openCreate}
        onAddIntent={actions.preload}
      />
      <Box sx={{ display: 'grid', gap: 2 }}>
        <RegisterToolbar>
          <SearchField {...list.searchField} label={TEXTS.search} placeholder="N° de sinistre, immatriculation, ville ou conducteur" />
          <ArchiveFilter {...list.archiveFilter} label={TEXTS.status} />
          {mobile && (
            <Button
              variant="outlined"
              startIcon={<FilterList />}
              aria-expanded={filtersOpen}
              aria-controls={filtersId}
              onClick={() => setFiltersOpen((open) => !open)}
              sx={{ bgcolor: 'background.paper' }}
            >
              {activeFilters > 0 ? `Filtres (${activeFilters})` : 'Filtres'}
            </Button>
          )}
          <ExportButton path="/api/sinister/export" query={list.apiQuery} what="les sinistres" />
        </RegisterToolbar>
        {/* Set by a link (the dashboard's top drivers), without a control of its own: shown on phones too. */}
        {driverLabel && <RemovableFilterChip label={driverLabel} onRemove={() => list.setFilter('driver', '')} />}
        {mobile ? (
          // Shown or hidden at once, the count in the button's label (no Badge, no Collapse: ≈ 2.5 kB
          // of MUI on the page's first load, issue 10).
          <Box id={filtersId} hidden={!filtersOpen}>
            <Card sx={{ p: 2, display: 'grid', gap: 2 }}>{filters}</Card>
          </Box>
        ) : (
          <Box sx={{ display: 'grid', gap: 1 }}>{filters}</Box>
        )}
      </Box>

      <RegisterTable
        {...SINISTERS_TABLE}
        {...list.table}
        {...actions.table}
        empty={{
          text: `Aucun sinistre ${period}. Élargissez la période ou déclarez un sinistre.`,
          action: <AddButton label={TEXTS.add} onClick={actions.openCreate} onIntent={actions.preload} />,
          filteredText: archivedOnly ? `Aucun sinistre archivé ${period}.` : undefined,
          filteredAction: archivedOnly ? (
            <Button onClick={() => list.setArchive('active')}>{TEXTS.seeActive}</Button>
          ) : (
            <Button onClick={list.clearFilters}>Effacer les filtres</Button>
          ),
        }}
      />
      <RegisterDialogs actions={actions} texts={TEXTS} form={SinisterForm} formWidth="md" details={SinisterDetailsDialog} />
    </RegisterScreen>
  );
}
