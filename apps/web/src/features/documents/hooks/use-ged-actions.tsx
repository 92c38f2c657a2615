import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import DriveFileRenameOutline from '@mui/icons-material/DriveFileRenameOutline';
import EventOutlined from '@mui/icons-material/EventOutlined';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import type { DocumentItem } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  createFolder,
  deleteDocument,
  documentName,
  downloadDocument,
  invalidateDocuments,
  restoreDocument,
  updateDocument,
} from '../../../components/documents/documents-api';
import { canPreview } from '../../../components/documents/file-kind';
import { showActionError } from '../../../components/register/register-actions';
import type { RowAction } from '../../../components/register/row-actions-menu';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';

/** A deletion being confirmed: first as asked, then (a folder that is not empty) with its content. */
export type DeleteState = { document: DocumentItem; recursive: boolean; open: boolean };

/**
 * What the GED does with its rows and its header's buttons: the dialogs' state and the calls
 * behind them. Every change refreshes the documents (invalidateDocuments); a failed action shows
 * the API's French message in the snackbar, a refused name or move in its dialog.
 */
export function useGedActions({ parent, openFolder, searching }: { parent: string | undefined; openFolder: (uuid: string | null) => void; searching: boolean }) {
  const queryClient = useQueryClient();
  const [newFolder, setNewFolder] = useState(false);
  const [renaming, setRenaming] = useState<DocumentItem | null>(null);
  const [moving, setMoving] = useState<DocumentItem | null>(null);
  const [dating, setDating] = useState<DocumentItem | null>(null);
  const [previewing, setPreviewing] = useState<DocumentItem | null>(null);
  const [deleting, setDeleting] = useState<DeleteState | null>(null);
  const [trashOpen, setTrashOpen] = useState(false);
  const refresh = () => invalidateDocuments(queryClient);

  const open = (doc: DocumentItem) => (doc.kind === 'folder' ? openFolder(doc.uuid) : setPreviewing(doc));

  const download = (doc: DocumentItem) => {
    downloadDocument({ uuid: doc.uuid, name: documentName(doc) }).catch((error: unknown) => showActionError(error));
  };

  const create = async (folderName: string) => {
    const folder = await createFolder({ folderName, parent: parent ?? null });
    refresh();
    snackbar.show({ type: 'success', title: 'Dossier créé', description: `« ${documentName(folder)} »` });
  };

  const rename = async (doc: DocumentItem, name: string) => {
    const saved = await updateDocument(doc.uuid, { name });
    refresh();
    snackbar.show({ type: 'success', title: doc.kind === 'folder' ? 'Dossier renommé' : 'Fichier renommé', description: `« ${documentName(saved)} »` });
  };

  const move = async (doc: DocumentItem, to: string | null) => {
    await updateDocument(doc.uuid, { parent: to });
    refresh();
    snackbar.show({ type: 'success', title: 'Document déplacé', description: `« ${documentName(doc)} »` });
  };

  const setExpiry = async (doc: DocumentItem, expiresOn: string | null) => {
    await updateDocument(doc.uuid, { expiresOn });
    refresh();
    snackbar.show({ type: 'success', title: expiresOn ? 'Date d’expiration enregistrée' : 'Date d’expiration retirée', description: `« ${documentName(doc)} »` });
  };

  /** To the trash; a folder that is not empty (409) asks again before taking its content too. */
  const confirmDelete = async ({ document: doc, recursive }: DeleteState) => {
    try {
      await deleteDocument(doc.uuid, recursive ? { recursive: true } : undefined);
    } catch (error) {
      if (!recursive && doc.kind === 'folder' && error instanceof ApiError && error.status === 409) {
        setDeleting({ document: doc, recursive: true, open: true });
        return;
      }
      showActionError(error);
      throw error;
    }
    setDeleting((state) => state && { ...state, open: false });
    refresh();
    const name = documentName(doc);
    snackbar.show({
      type: 'success',
      title: doc.kind === 'folder' ? 'Dossier mis à la corbeille' : 'Fichier mis à la corbeille',
      description: `« ${name} »`,
      duration: 6000,
      undo: () => {
        restoreDocument(doc.uuid).then(
          () => {
            refresh();
            snackbar.show({ type: 'success', title: 'Document restauré', description: `« ${name} »` });
          },
          (error: unknown) => showActionError(error),
        );
      },
    });
  };

  const rowActions = (doc: DocumentItem): (RowAction | false)[] => {
    const file = doc.kind === 'file';
    return [
      !file && { label: 'Ouvrir', icon: <FolderOpenOutlined fontSize="small" />, onClick: () => openFolder(doc.uuid) },
      file && canPreview(doc.type) && { label: 'Aperçu', icon: <VisibilityOutlined fontSize="small" />, onClick: () => setPreviewing(doc) },
      file && { label: 'Télécharger', icon: <DownloadOutlined fontSize="small" />, onClick: () => download(doc) },
      searching && { label: 'Ouvrir son dossier', icon: <FolderOpenOutlined fontSize="small" />, onClick: () => openFolder(doc.parent) },
      { label: 'Renommer', icon: <DriveFileRenameOutline fontSize="small" />, onClick: () => setRenaming(doc) },
      { label: 'Déplacer', icon: <DriveFileMoveOutlined fontSize="small" />, onClick: () => setMoving(doc) },
      file && { label: 'Date d’expiration', icon: <EventOutlined fontSize="small" />, onClick: () => setDating(doc) },
      { label: 'Supprimer', icon: <DeleteOutlined fontSize="small" />, danger: true, onClick: () => setDeleting({ document: doc, recursive: false, open: true }) },
    ];
  };

  return {
    open,
    rowActions,
    newFolder: { open: newFolder, show: () => setNewFolder(true), close: () => setNewFolder(false), submit: create },
    rename: { document: renaming, close: () => setRenaming(null), submit: rename },
    move: { document: moving, close: () => setMoving(null), submit: move },
    expiry: { document: dating, close: () => setDating(null), submit: setExpiry },
    preview: { document: previewing, close: () => setPreviewing(null) },
    remove: { state: deleting, confirm: confirmDelete, close: () => setDeleting((state) => state && { ...state, open: false }) },
    trash: { open: trashOpen, show: () => setTrashOpen(true), close: () => setTrashOpen(false) },
  };
}
