import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { DOCUMENT_TRASH_DAYS, type DocumentItem } from '@flotte/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  deleteDocumentPermanently,
  documentName,
  invalidateDocuments,
  restoreDocument,
  trashQuery,
} from '../../../components/documents/documents-api';
import { FileKindIcon } from '../../../components/documents/file-kind';
import { ConfirmDialog } from '../../../components/register/confirm-dialog';
import { RegisterPagination } from '../../../components/register/register-pagination';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { formatDateTime } from '../../../lib/format';
import { documentSize } from '../utils/ged-texts';

const TRASH_PAGE = 10;

export type TrashDialogProps = {
  open: boolean;
  /** Administrators may delete for good (the API refuses anyone else). */
  canPurge: boolean;
  onClose: () => void;
};

/**
 * The trash: what was deleted (a folder with its content), the latest first, each with
 * « Restaurer » and, for administrators, « Supprimer définitivement ». Purged after 30 days.
 */
export function TrashDialog({ open, canPurge, onClose }: TrashDialogProps) {
  const titleId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const trash = useQuery({ ...trashQuery({ page, limit: TRASH_PAGE }), placeholderData: keepPreviousData, enabled: open });
  const [busy, setBusy] = useState<string | null>(null);
  const [purging, setPurging] = useState<DocumentItem | null>(null);
  const rows = trash.data?.data ?? [];
  const total = trash.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / TRASH_PAGE));
  if (trash.data && !trash.isPlaceholderData && page > lastPage) setPage(lastPage);

  const restore = async (doc: DocumentItem) => {
    setBusy(doc.uuid);
    try {
      await restoreDocument(doc.uuid);
      invalidateDocuments(queryClient);
      snackbar.show({ type: 'success', title: 'Document restauré', description: `« ${documentName(doc)} » est de retour dans ses documents.` });
    } catch (error) {
      showActionError(error);
    } finally {
      setBusy(null);
    }
  };

  const purge = async (doc: DocumentItem) => {
    try {
      await deleteDocumentPermanently(doc.uuid);
    } catch (error) {
      showActionError(error);
      throw error;
    }
    invalidateDocuments(queryClient);
    setPurging(null);
    snackbar.show({ type: 'success', title: 'Supprimé définitivement', description: `« ${documentName(doc)} »` });
  };

  return (
    <>
      <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth fullScreen={phone}>
        <DialogTitle id={titleId}>Corbeille</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
          <DialogContentText>
            Les documents supprimés restent ici {DOCUMENT_TRASH_DAYS} jours, puis disparaissent définitivement. Un dossier restauré revient avec tout son contenu.
          </DialogContentText>
          {trash.isPending ? (
            <Box aria-hidden sx={{ display: 'grid', gap: 1.5 }}>
              {[0, 1, 2].map((index) => (
                <Skeleton key={index} variant="rounded" height={48} />
              ))}
            </Box>
          ) : trash.error ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void trash.refetch()}>
                  Réessayer
                </Button>
              }
            >
              {trash.error.message}
            </Alert>
          ) : rows.length === 0 ? (
            <Typography role="status" color="textSecondary" sx={{ py: 4, textAlign: 'center' }}>
              La corbeille est vide.
            </Typography>
          ) : (
            <Box component="ul" aria-label="Documents dans la corbeille" sx={{ listStyle: 'none', m: 0, p: 0, opacity: trash.isPlaceholderData ? 0.6 : 1 }}>
              {rows.map((doc) => {
                const name = documentName(doc);
                const size = documentSize(doc);
                return (
                  <Box
                    component="li"
                    key={doc.uuid}
                    sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, py: 1.5, borderTop: 1, borderColor: 'divider', '&:first-of-type': { borderTop: 0 } }}
                  >
                    <FileKindIcon doc={doc} aria-hidden />
                    <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
                      <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</Typography>
                      <Typography variant="body2" color="textSecondary">
                        {[doc.kind === 'folder' ? 'Dossier et son contenu' : size, doc.deletedAt ? `supprimé le ${formatDateTime(doc.deletedAt)}` : '']
                          .filter(Boolean)
                          .join(' · ')}
                      </Typography>
                    </Box>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, ml: 'auto' }}>
                      <Button size="small" variant="outlined" onClick={() => void restore(doc)} loading={busy === doc.uuid} aria-label={`Restaurer ${name}`}>
                        Restaurer
                      </Button>
                      {canPurge && (
                        <Button size="small" color="error" onClick={() => setPurging(doc)} aria-label={`Supprimer définitivement ${name}`}>
                          Supprimer définitivement
                        </Button>
                      )}
                    </Box>
                  </Box>
                );
              })}
            </Box>
          )}
        </DialogContent>
        {total > TRASH_PAGE && (
          <RegisterPagination page={Math.min(page, lastPage)} pageSize={TRASH_PAGE} total={total} totalIsCapped={false} showEdges={!phone} onPageChange={setPage} />
        )}
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Fermer</Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={purging !== null}
        title={`Supprimer définitivement « ${purging ? documentName(purging) : ''} » ?`}
        description={purging?.kind === 'folder' ? 'Le dossier et tout son contenu seront effacés. Cette action est irréversible.' : 'Le fichier sera effacé. Cette action est irréversible.'}
        confirmLabel="Supprimer définitivement"
        onConfirm={() => (purging ? purge(purging) : undefined)}
        onClose={() => setPurging(null)}
      />
    </>
  );
}
