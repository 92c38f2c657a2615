import AttachFileOutlined from '@mui/icons-material/AttachFileOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { formatFileSize, type DocumentItem } from '@flotte/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useRef, useState, type ChangeEvent } from 'react';
import { formatDate } from '../../lib/format';
import { lazyComponent } from '../lazy-component';
import { DetailSection } from '../register/record-dialog';
import { LazyConfirmDialog } from '../register/lazy-confirm-dialog';
import { showActionError } from '../register/register-actions';
import { snackbar } from '../snackbar/snackbar';
import { attachmentsQuery, detachDocument, documentName, downloadDocument, invalidateDocuments, restoreDocument, type AttachableEntity } from './documents-api';
import { canPreview, expiryState, FileKindIcon } from './file-kind';
import { DOCUMENT_ACCEPT, useDocumentUpload } from './use-document-upload';

// The viewer (blob URL, PDF frame) is fetched when a file is first previewed.
const DocumentPreviewDialog = lazyComponent(() => import('./document-preview-dialog').then((module) => module.DocumentPreviewDialog));

/** A file of the record: the full item once loaded, the record's own `{ uuid, name }` meanwhile. */
type Shown = { uuid: string; name: string; item: DocumentItem | null };

export type RecordDocumentsProps = {
  entity: AttachableEntity;
  /** The driver's, vehicle's or claim's uuid. */
  uuid: string;
  /** The record's `documents` (its list page or detail): shown until GET …/documents answers. */
  documents: readonly { uuid: string; name: string }[];
  /** An archived record: its files are listed, previewed and downloaded, never added or taken off. */
  readOnly?: boolean;
};

/** « Expiré le 02/11/2026 » (red), « Expire le 03/12/2026 » (orange within 30 days, plain beyond). */
function ExpiryChip({ expiresOn }: { expiresOn: string }) {
  const state = expiryState(expiresOn);
  const label = state === 'expired' ? `Expiré le ${formatDate(expiresOn)}` : `Expire le ${formatDate(expiresOn)}`;
  return <Chip size="small" variant={state ? 'filled' : 'outlined'} color={state === 'expired' ? 'error' : state === 'soon' ? 'warning' : 'default'} label={label} />;
}

/**
 * « Documents » of a driver, a vehicle or a claim (issue 14): its attached files with their kind,
 * size and expiry; « Ajouter des fichiers », and on a phone « Prendre une photo » (the camera, by
 * the browser's own capture); preview, download, and « Retirer », which puts the file in the GED's
 * trash with « Annuler » in the snackbar. Each change refreshes the register's pages, whose rows
 * carry their `documents`.
 */
export function RecordDocuments({ entity, uuid, documents, readOnly = false }: RecordDocumentsProps) {
  const queryClient = useQueryClient();
  const query = useQuery(attachmentsQuery(entity, uuid));
  const upload = useDocumentUpload();
  const filesInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  // A phone or a touch screen: its browser offers the camera for a capture input.
  const touch = useMediaQuery('(pointer: coarse), (max-width: 599.95px)', { noSsr: true });
  const [uploading, setUploading] = useState(false);
  const [previewed, setPreviewed] = useState<{ uuid: string; name: string; type: string | null } | null>(null);
  // Rendered from the first preview on, so that it closes with its transition.
  const [previewOpened, setPreviewOpened] = useState(false);
  if (previewed && !previewOpened) setPreviewOpened(true);
  const [toRemove, setToRemove] = useState<{ open: boolean; file?: Shown }>({ open: false });

  const shown: Shown[] = query.data
    ? query.data.map((item) => ({ uuid: item.uuid, name: documentName(item), item }))
    : documents.map((document) => ({ uuid: document.uuid, name: document.name, item: null }));

  async function add(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    // The same file chosen again must fire `change` again.
    event.target.value = '';
    if (files.length === 0) return;
    setUploading(true);
    try {
      await upload({ entity, uuid }, files);
    } finally {
      setUploading(false);
    }
  }

  // Told once the confirmation has faded out, so that « Annuler » stays within reach of screen readers.
  const removed = useRef<Shown | null>(null);

  async function remove(file: Shown) {
    try {
      await detachDocument(entity, uuid, file.uuid);
    } catch (error) {
      showActionError(error);
      throw error;
    }
    removed.current = file;
    setToRemove((current) => ({ ...current, open: false }));
    invalidateDocuments(queryClient);
  }

  function tellRemoved() {
    const file = removed.current;
    removed.current = null;
    if (!file) return;
    snackbar.show({
      type: 'success',
      title: 'Fichier retiré',
      description: `« ${file.name} » est dans la corbeille de la gestion documentaire.`,
      duration: 8000,
      undo: () =>
        void restoreDocument(file.uuid).then(
          () => {
            invalidateDocuments(queryClient);
            snackbar.show({ type: 'success', title: 'Fichier rétabli', description: file.name });
          },
          (error: unknown) => showActionError(error),
        ),
    });
  }

  async function download(file: Shown) {
    try {
      await downloadDocument({ uuid: file.uuid, name: file.name });
    } catch (error) {
      snackbar.show({ type: 'error', title: 'Téléchargement impossible', description: error instanceof Error && error.message ? error.message : undefined });
    }
  }

  return (
    <DetailSection title="Documents">
      {query.error && !query.isFetching && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {`${query.error.message} La liste affichée peut être incomplète.`}
        </Alert>
      )}
      {shown.length === 0 ? (
        <Typography color="textSecondary">Aucun document</Typography>
      ) : (
        <Box component="ul" aria-label="Fichiers joints" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.5 }}>
          {shown.map((file) => (
            <Box
              component="li"
              key={file.uuid}
              // On a phone the buttons go under the name, which keeps the width of the dialog.
              sx={{ display: 'grid', gridTemplateColumns: { xs: 'auto minmax(0, 1fr)', sm: 'auto minmax(0, 1fr) auto' }, alignItems: 'center', columnGap: 1.5, py: 0.5 }}
            >
              {file.item ? (
                <FileKindIcon doc={file.item} fontSize="small" aria-hidden />
              ) : (
                <DescriptionOutlined fontSize="small" sx={{ color: 'text.secondary' }} aria-hidden />
              )}
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ overflowWrap: 'anywhere' }}>{file.name}</Typography>
                {file.item && (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                    {file.item.size !== null && (
                      <Typography variant="body2" color="textSecondary" component="span">
                        {formatFileSize(file.item.size)}
                      </Typography>
                    )}
                    {file.item.expiresOn && <ExpiryChip expiresOn={file.item.expiresOn} />}
                  </Box>
                )}
              </Box>
              <Box sx={{ display: 'flex', gridColumn: { xs: 2, sm: 'auto' }, ml: { xs: -1, sm: 0 } }}>
                {file.item && canPreview(file.item.type) && (
                  <Tooltip title="Aperçu">
                    <IconButton aria-label={`Aperçu de ${file.name}`} onClick={() => setPreviewed({ uuid: file.uuid, name: file.name, type: file.item!.type })}>
                      <VisibilityOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
                <Tooltip title="Télécharger">
                  <IconButton aria-label={`Télécharger ${file.name}`} onClick={() => void download(file)}>
                    <FileDownloadOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
                {!readOnly && (
                  <Tooltip title="Retirer">
                    <IconButton aria-label={`Retirer ${file.name}`} onClick={() => setToRemove({ open: true, file })}>
                      <LinkOffOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              </Box>
            </Box>
          ))}
        </Box>
      )}
      {!readOnly && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1.5 }}>
          <Button variant="outlined" size="small" startIcon={<AttachFileOutlined />} disabled={uploading} onClick={() => filesInput.current?.click()}>
            Ajouter des fichiers
          </Button>
          {touch && (
            <Button variant="outlined" size="small" startIcon={<PhotoCameraOutlined />} disabled={uploading} onClick={() => cameraInput.current?.click()}>
              Prendre une photo
            </Button>
          )}
          <input ref={filesInput} type="file" multiple accept={DOCUMENT_ACCEPT} hidden aria-hidden tabIndex={-1} onChange={(event) => void add(event)} />
          {touch && <input ref={cameraInput} type="file" accept="image/*" capture="environment" hidden aria-hidden tabIndex={-1} onChange={(event) => void add(event)} />}
        </Box>
      )}
      <LazyConfirmDialog
        open={toRemove.open}
        title={toRemove.file ? `Retirer « ${toRemove.file.name} » ?` : ''}
        description="Le fichier part dans la corbeille de la gestion documentaire, d’où il peut être restauré pendant 30 jours."
        confirmLabel="Retirer"
        onConfirm={() => (toRemove.file ? remove(toRemove.file) : undefined)}
        onClose={() => setToRemove((current) => ({ ...current, open: false }))}
        onExited={tellRemoved}
      />
      {previewOpened && (
        <Suspense fallback={null}>
          <DocumentPreviewDialog document={previewed} onClose={() => setPreviewed(null)} />
        </Suspense>
      )}
    </DetailSection>
  );
}
