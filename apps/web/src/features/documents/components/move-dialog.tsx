import ChevronRight from '@mui/icons-material/ChevronRight';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { DocumentItem } from '@flotte/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ancestorsQuery, documentName, gedPageQuery } from '../../../components/documents/documents-api';
import { FileKindIcon } from '../../../components/documents/file-kind';
import { ApiError } from '../../../lib/api-error';
import { GED_ROOT_LABEL } from '../utils/ged-texts';

/** Folders listed per page of the picker (folders come first in a folder's content). */
const PICKER_PAGE = 50;

export type MoveDialogProps = {
  /** The document to move; closed when null. */
  document: DocumentItem | null;
  /** Moves it (PATCH parent); the API's refusal (its own subtree) is shown in the dialog. */
  onMove: (document: DocumentItem, parent: string | null) => Promise<unknown>;
  onClose: () => void;
};

/**
 * Picks the folder to move a document into, browsing the tree from « Mes documents ». The moved
 * folder itself cannot be opened nor chosen (nor, therefore, anything under it); a refusal of the
 * API still shows here, in its own words.
 */
export function MoveDialog({ document, onMove, onClose }: MoveDialogProps) {
  return document ? <MoveDialogContent key={document.uuid} document={document} onMove={onMove} onClose={onClose} /> : null;
}

function MoveDialogContent({ document, onMove, onClose }: { document: DocumentItem; onMove: MoveDialogProps['onMove']; onClose: () => void }) {
  const titleId = useId();
  const [at, setAt] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const name = documentName(document);
  const folders = useQuery({ ...gedPageQuery({ parent: at ?? undefined, page: 1, limit: PICKER_PAGE }), placeholderData: keepPreviousData });
  const path = useQuery(ancestorsQuery(at ?? undefined));
  const here = at === document.parent;
  const crumbs = [{ uuid: null as string | null, name: GED_ROOT_LABEL }, ...(at ? (path.data ?? []).map((folder) => ({ uuid: folder.uuid, name: folder.folderName })) : [])];
  const atName = crumbs.at(-1)?.name ?? GED_ROOT_LABEL;
  const subfolders = (folders.data?.data ?? []).filter((item) => item.kind === 'folder');

  const open = (uuid: string | null) => {
    setRefusal(null);
    setAt(uuid);
  };

  const move = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      await onMove(document, at);
      onClose();
    } catch (error) {
      setRefusal(error instanceof ApiError ? error.message : 'Le déplacement a échoué. Veuillez réessayer.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        Déplacer « {name} »
      </DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 1.5 }}>
        <Breadcrumbs aria-label="Dossier choisi" separator="›" sx={{ '& .MuiBreadcrumbs-li': { minWidth: 0, overflowWrap: 'anywhere' } }}>
          {crumbs.map((crumb, index) =>
            index === crumbs.length - 1 ? (
              <Typography key={crumb.uuid ?? 'root'} aria-current="location" sx={{ fontWeight: 600 }}>
                {crumb.name}
              </Typography>
            ) : (
              <Link key={crumb.uuid ?? 'root'} component="button" type="button" onClick={() => open(crumb.uuid)} underline="hover" color="inherit">
                {crumb.name}
              </Link>
            ),
          )}
        </Breadcrumbs>
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, minHeight: 160, maxHeight: 320, overflow: 'auto' }}>
          {folders.isPending ? (
            <Box aria-hidden sx={{ p: 2, display: 'grid', gap: 1 }}>
              <Skeleton width="60%" />
              <Skeleton width="45%" />
              <Skeleton width="50%" />
            </Box>
          ) : folders.error ? (
            <Alert severity="error" sx={{ m: 1 }}>
              {folders.error.message}
            </Alert>
          ) : subfolders.length === 0 ? (
            <Typography color="textSecondary" sx={{ p: 2 }}>
              Aucun sous-dossier ici.
            </Typography>
          ) : (
            <List dense aria-label={`Dossiers dans ${atName}`}>
              {subfolders.map((folder) => {
                const itself = folder.uuid === document.uuid;
                const folderLabel = documentName(folder);
                return (
                  <ListItem key={folder.uuid} disablePadding>
                    <ListItemButton disabled={itself} onClick={() => open(folder.uuid)} aria-label={itself ? `${folderLabel} (le dossier déplacé)` : `Ouvrir ${folderLabel}`}>
                      <ListItemIcon sx={{ minWidth: 36 }}>
                        <FileKindIcon doc={folder} fontSize="small" />
                      </ListItemIcon>
                      <ListItemText primary={folderLabel} secondary={itself ? 'Le dossier déplacé' : undefined} sx={{ overflowWrap: 'anywhere' }} />
                      {!itself && <ChevronRight fontSize="small" aria-hidden sx={{ color: 'action.active' }} />}
                    </ListItemButton>
                  </ListItem>
                );
              })}
            </List>
          )}
        </Box>
        {subfolders.length === PICKER_PAGE && (folders.data?.total ?? 0) > PICKER_PAGE && (
          <Typography variant="body2" color="textSecondary">
            Seuls les {PICKER_PAGE} premiers dossiers sont proposés ici.
          </Typography>
        )}
        {refusal && (
          <Alert severity="error" role="alert">
            {refusal}
          </Alert>
        )}
        {here && !refusal && (
          <Typography variant="body2" color="textSecondary">
            « {name} » est déjà dans ce dossier.
          </Typography>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={busy}>
          Annuler
        </Button>
        <Button variant="contained" onClick={() => void move()} loading={busy} disabled={here || (at !== null && path.isPending)}>
          Déplacer ici
        </Button>
      </DialogActions>
    </Dialog>
  );
}
