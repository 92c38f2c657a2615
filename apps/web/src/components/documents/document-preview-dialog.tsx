import CloseIcon from '@mui/icons-material/Close';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useEffect, useId, useState } from 'react';
import { ApiError } from '../../lib/api-error';
import { snackbar } from '../snackbar/snackbar';
import { downloadDocument, fetchPreview } from './documents-api';
import { canPreview, FileKindIcon, fileKind } from './file-kind';

/** The file a preview dialog shows. */
export type PreviewedDocument = { uuid: string; name: string; type: string | null };

const PREVIEW_FAILED = 'L’aperçu n’a pas pu être chargé. Vous pouvez télécharger le fichier.';

/** An object URL of the file's preview while `uuid` is set; revoked when it changes or the dialog goes. */
function usePreviewUrl(doc: PreviewedDocument | null): { url: string | null; error: string | null } {
  const [state, setState] = useState<{ uuid: string; url: string | null; error: string | null } | null>(null);
  const uuid = doc && canPreview(doc.type) ? doc.uuid : null;
  useEffect(() => {
    if (!uuid) return;
    const controller = new AbortController();
    let url: string | null = null;
    fetchPreview(uuid, controller.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setState({ uuid, url, error: null });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ uuid, url: null, error: error instanceof ApiError && error.status !== 0 ? error.message : PREVIEW_FAILED });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [uuid]);
  if (!uuid || state?.uuid !== uuid) return { url: null, error: null };
  return { url: state.url, error: state.error };
}

/** Saves a file, telling the user when it could not be fetched. */
export async function downloadWithFeedback(doc: { uuid: string; name: string }): Promise<void> {
  try {
    await downloadDocument(doc);
  } catch (error) {
    snackbar.show({ type: 'error', title: 'Téléchargement impossible', description: error instanceof ApiError ? error.message : undefined });
  }
}

/**
 * A file's preview (issue 14): an image or a PDF shown by the browser from its bytes, fetched with
 * the session (a plain link cannot carry it); any other file says so and offers the download.
 * Full screen on a phone.
 */
export function DocumentPreviewDialog({ document: current, onClose }: { document: PreviewedDocument | null; onClose: () => void }) {
  const titleId = useId();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // Kept while the dialog fades out, so its title does not change as it goes.
  const [shown, setShown] = useState(current);
  if (current && current !== shown) setShown(current);
  const { url, error } = usePreviewUrl(current);
  const kind = shown ? fileKind({ kind: 'file', type: shown.type }) : 'other';
  const previewable = shown ? canPreview(shown.type) : false;

  return (
    <Dialog
      open={current !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="lg"
      slotProps={{ transition: { onExited: () => setShown(null) } }}
    >
      <DialogTitle id={titleId} sx={{ pr: 7, overflowWrap: 'anywhere' }}>
        {shown?.name}
      </DialogTitle>
      <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent dividers sx={{ p: 0, display: 'flex', minHeight: { xs: 0, sm: 360 }, bgcolor: 'action.hover' }}>
        {shown && !previewable ? (
          <Box sx={{ m: 'auto', p: 4, textAlign: 'center' }}>
            <FileKindIcon doc={{ kind: 'file', type: shown.type }} sx={{ fontSize: 64 }} />
            <Typography sx={{ mt: 1 }}>Pas d’aperçu pour ce type de fichier. Téléchargez-le pour l’ouvrir.</Typography>
          </Box>
        ) : error ? (
          <Alert severity="warning" sx={{ m: 'auto' }}>
            {error}
          </Alert>
        ) : !url ? (
          <Box role="status" aria-label="Chargement de l’aperçu…" sx={{ m: 'auto', p: 4 }}>
            <CircularProgress aria-hidden />
          </Box>
        ) : kind === 'pdf' ? (
          <Box component="iframe" title={`Aperçu de ${shown?.name ?? 'ce fichier'}`} src={url} sx={{ border: 0, width: '100%', height: { xs: '100%', sm: '75vh' } }} />
        ) : (
          <Box
            component="img"
            src={url}
            alt={`Aperçu de ${shown?.name ?? 'cette image'}`}
            sx={{ m: 'auto', display: 'block', maxWidth: '100%', maxHeight: { xs: '100%', sm: '75vh' }, objectFit: 'contain' }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fermer</Button>
        <Button variant="contained" startIcon={<FileDownloadOutlined />} disabled={!shown} onClick={() => shown && void downloadWithFeedback(shown)}>
          Télécharger
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default DocumentPreviewDialog;
