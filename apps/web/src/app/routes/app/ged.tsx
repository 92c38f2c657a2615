import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { PAGE_SIZE } from '@flotte/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Link as RouterLink } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { ancestorsQuery, documentName, gedPageQuery } from '../../../components/documents/documents-api';
import { useDocumentUpload } from '../../../components/documents/use-document-upload';
import { lazyComponent, useOpenedOnce } from '../../../components/lazy-component';
import { LazyConfirmDialog } from '../../../components/register/lazy-confirm-dialog';
import { OpenedOnce } from '../../../components/register/lazy-dialog';
import { RegisterScreen, RegisterToolbar } from '../../../components/register/register-layout';
import { RegisterTable } from '../../../components/register/register-table';
import { SearchField } from '../../../components/register/search-field';
import { useListQueryState } from '../../../components/register/use-register-list';
import { PlanFeature } from '../../../features/billing/components/plan-feature';
import { PageDropZone } from '../../../features/documents/components/drop-zone';
import { ExpiringPanel } from '../../../features/documents/components/expiring-panel';
import { GedBreadcrumb } from '../../../features/documents/components/ged-breadcrumb';
import { GED_COLUMNS } from '../../../features/documents/components/ged-table';
import { UploadButton } from '../../../features/documents/components/upload-button';
import { useGedActions } from '../../../features/documents/hooks/use-ged-actions';
import { useGedParams } from '../../../features/documents/hooks/use-ged-params';
import { GED_ROOT_LABEL, GED_TITLE } from '../../../features/documents/utils/ged-texts';
import { useCurrentUser } from '../../../lib/auth-store';
import { isAdministrator } from '../../../lib/permissions';

// The viewer comes with the first preview (a blob URL of the image or PDF), each dialog when first
// opened: the page's first load is the list (issue 10).
const DocumentPreviewDialog = lazyComponent(() => import('../../../components/documents/document-preview-dialog').then((module) => module.DocumentPreviewDialog));
const DocumentNameDialog = lazyComponent(() => import('../../../features/documents/components/document-name-dialog').then((module) => module.DocumentNameDialog));
const MoveDialog = lazyComponent(() => import('../../../features/documents/components/move-dialog').then((module) => module.MoveDialog));
const ExpiryDialog = lazyComponent(() => import('../../../features/documents/components/expiry-dialog').then((module) => module.ExpiryDialog));
const TrashDialog = lazyComponent(() => import('../../../features/documents/components/trash-dialog').then((module) => module.TrashDialog));

/** /ged: the document management, a feature of the plan for an organization that pays for itself. */
export default function GedRoute() {
  return (
    <PlanFeature feature="documents">
      <GedPage />
    </PlanFeature>
  );
}

function GedPage() {
  const params = useGedParams();
  const { parent, search, page, setPage, setSearch, clearSearch, openFolder } = params;
  const searching = search !== '';
  const query = useQuery({ ...gedPageQuery({ parent: searching ? undefined : parent, search: search || undefined, page, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const list = useListQueryState(query, { page, setPage });
  const path = useQuery(ancestorsQuery(parent));
  const folderName = parent ? (path.data?.at(-1)?.folderName ?? 'ce dossier') : GED_ROOT_LABEL;
  const upload = useDocumentUpload();
  const uploadFiles = (files: File[]) => void upload({ parent: parent ?? null }, files);
  const actions = useGedActions({ parent, openFolder, searching });
  const canPurge = isAdministrator(useCurrentUser());
  const previewOpened = useOpenedOnce(actions.preview.document !== null);
  const deleting = actions.remove.state;

  return (
    <RegisterScreen>
      <PageDropZone folderName={folderName} onFiles={uploadFiles} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2 }}>
        <DocumentTitle title={GED_TITLE} />
        <Box sx={{ minWidth: 0 }}>
          <Typography component="h1" variant="h4">
            {GED_TITLE}
          </Typography>
          {/* Dragging files is for a computer; a phone has the button. */}
          <Typography color="textSecondary" sx={{ mt: 0.5, display: { xs: 'none', sm: 'block' } }}>
            Glissez vos fichiers sur la page pour les ajouter au dossier ouvert.
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
          <Button variant="outlined" component={RouterLink} to="/media" startIcon={<PhotoLibraryOutlined />}>
            Médiathèque
          </Button>
          <Button variant="outlined" onClick={actions.trash.show} startIcon={<DeleteOutlined />}>
            Corbeille
          </Button>
          <Button variant="outlined" onClick={actions.newFolder.show} startIcon={<CreateNewFolderOutlined />}>
            Nouveau dossier
          </Button>
          <UploadButton onFiles={uploadFiles} />
        </Box>
      </Box>

      <ExpiringPanel />

      <RegisterToolbar>
        <SearchField value={search} onChange={setSearch} label="Rechercher un document" placeholder="Nom d’un dossier ou d’un fichier" />
      </RegisterToolbar>

      <Box sx={{ display: 'grid', gap: 1.5, minWidth: 0 }}>
        {searching ? (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              Résultats pour « {search} » dans tous les dossiers
            </Typography>
            <Button size="small" onClick={clearSearch}>
              Revenir à « {folderName} »
            </Button>
          </Box>
        ) : (
          <GedBreadcrumb parent={parent} />
        )}
        <RegisterTable
          label={searching ? `Résultats pour « ${search} »` : `Contenu de « ${folderName} »`}
          columns={GED_COLUMNS}
          rows={list.rows}
          getRowId={(doc) => doc.uuid}
          getRowLabel={documentName}
          onOpenRow={actions.open}
          rowActions={actions.rowActions}
          sortBy="name"
          onSortChange={() => undefined}
          page={page}
          total={list.total}
          totalIsCapped={list.totalIsCapped}
          onPageChange={setPage}
          loading={list.loading}
          fetching={list.fetching}
          error={list.error}
          onRetry={list.retry}
          search={search}
          isFiltered={searching}
          onClearSearch={clearSearch}
          empty={{
            text: parent
              ? 'Ce dossier est vide. Glissez-y des fichiers ou importez-les depuis votre appareil.'
              : 'Aucun document pour le moment. Glissez vos fichiers sur la page ou importez-les depuis votre appareil.',
            action: <UploadButton onFiles={uploadFiles} variant="outlined" />,
          }}
        />
      </Box>

      {actions.newFolder.open && (
        <OpenedOnce open onClose={actions.newFolder.close}>
          <DocumentNameDialog
            open
            title={`Nouveau dossier dans « ${folderName} »`}
            label="Nom du dossier"
            submitLabel="Créer"
            onSubmit={actions.newFolder.submit}
            onClose={actions.newFolder.close}
          />
        </OpenedOnce>
      )}
      {actions.rename.document && (
        <OpenedOnce open onClose={actions.rename.close}>
          <DocumentNameDialog
            key={actions.rename.document.uuid}
            open
            title={`Renommer « ${documentName(actions.rename.document)} »`}
            label="Nouveau nom"
            initialName={documentName(actions.rename.document)}
            submitLabel="Renommer"
            onSubmit={(name) => actions.rename.submit(actions.rename.document!, name)}
            onClose={actions.rename.close}
          />
        </OpenedOnce>
      )}
      <OpenedOnce open={actions.move.document !== null} onClose={actions.move.close}>
        <MoveDialog document={actions.move.document} onMove={actions.move.submit} onClose={actions.move.close} />
      </OpenedOnce>
      <OpenedOnce open={actions.expiry.document !== null} onClose={actions.expiry.close}>
        <ExpiryDialog document={actions.expiry.document} onSave={actions.expiry.submit} onClose={actions.expiry.close} />
      </OpenedOnce>
      <LazyConfirmDialog
        open={deleting?.open ?? false}
        title={
          deleting?.recursive
            ? 'Supprimer le dossier et tout son contenu ?'
            : `Supprimer « ${deleting ? documentName(deleting.document) : ''} » ?`
        }
        description={
          deleting?.recursive
            ? `« ${documentName(deleting.document)} » n’est pas vide : ses sous-dossiers et ses fichiers iront aussi à la corbeille, d’où vous pourrez tout restaurer pendant 30 jours.`
            : 'Il ira à la corbeille, d’où vous pourrez le restaurer pendant 30 jours.'
        }
        confirmLabel={deleting?.recursive ? 'Tout supprimer' : 'Supprimer'}
        onConfirm={() => (deleting ? actions.remove.confirm(deleting) : undefined)}
        onClose={actions.remove.close}
      />
      <OpenedOnce open={actions.trash.open} onClose={actions.trash.close}>
        <TrashDialog open={actions.trash.open} canPurge={canPurge} onClose={actions.trash.close} />
      </OpenedOnce>
      {previewOpened && (
        <Suspense fallback={null}>
          <DocumentPreviewDialog document={actions.preview.document && { uuid: actions.preview.document.uuid, name: documentName(actions.preview.document), type: actions.preview.document.type }} onClose={actions.preview.close} />
        </Suspense>
      )}
    </RegisterScreen>
  );
}
