import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import { useState, type ReactNode } from 'react';
import type { RegisterRecord } from '../../lib/register-api';
import { snackbar } from '../snackbar/snackbar';
import type { ConfirmDialogProps } from './confirm-dialog';
import { LazyConfirm } from './lazy-confirm-dialog';
import { RecordFormDialogFrame } from './register-dialogs';
import { archiveWithUndo, showActionError, type ArchiveWithUndoOptions } from './register-actions';
import type { RegisterTexts } from './register-texts';
import type { RowAction } from './row-actions-menu';

/** The writes the row actions need (lib/register-api.ts gives them). */
export type RegisterActionsApi<TRecord> = {
  useArchive: () => { mutateAsync: (input: { uuid: string }) => Promise<TRecord> };
  useRestore: () => { mutateAsync: (uuid: string) => Promise<TRecord> };
  useDelete: () => { mutateAsync: (uuid: string) => Promise<unknown> };
};

export type RegisterActionsDeclaration<TRecord extends RegisterRecord> = {
  api: RegisterActionsApi<TRecord>;
  texts: RegisterTexts;
  /** The record's name for people, in the snackbars: 'Élodie Écuyer', 'AB-123-CD'. */
  name: (record: TRecord) => string;
  /** The record opening a sentence ('Le sinistre du 14/03/2026 (AB‑123‑CD) ne figure plus…'); `name` by default. */
  subject?: (record: TRecord) => string;
  /** The record after a verb ('Supprimer définitivement le véhicule AB-123-CD ?'); `name` by default. */
  object?: (record: TRecord) => string;
  /** Offers 'Supprimer définitivement' (administrators only: the API refuses anyone else). */
  canDelete: boolean;
  /** Said after 'Cette action est irréversible.' in the deletion question. */
  deleteWarning?: string;
  /** Loaded as the deletion is asked, e.g. how many claims refer to the record. */
  deleteDetails?: (record: TRecord) => ReactNode;
  /** Replaces archiving at once with 'Annuler' (the vehicles first ask for an exit date). */
  onArchive?: (record: TRecord) => void;
  /** The restore snackbar's text when the register has more to say than that the record is back. */
  restoredDescription?: (record: TRecord, restored: TRecord) => string | undefined;
  /**
   * Fetches the register's lazy form and details dialog (lazyComponent, preloadAll) ahead of a
   * click: called when a button that opens them is hovered, focused or touched.
   */
  preload?: () => void;
  /** The register's own row actions, after 'Modifier' (the claims' 'Télécharger le dossier'). */
  moreActions?: (record: TRecord) => (RowAction | false)[];
};

type Opened<TRecord> = { open: boolean; record?: TRecord };

/** What a register flow may change in the archive-then-'Annuler' of useRegisterActions. */
export type ArchiveFlow = Partial<Pick<ArchiveWithUndoOptions, 'archive' | 'restore' | 'archivedDescription'>>;

/**
 * The actions on a register's records and the dialogs they open, from the register's texts and
 * writes: 'Voir', 'Modifier', 'Archiver' (with 'Annuler' in the snackbar) or 'Restaurer', and
 * 'Supprimer définitivement' after a confirmation. Every action tells its outcome in the snackbar.
 *
 * ```tsx
 * const actions = useRegisterActions({ api: driversApi, texts: DRIVER_TEXTS, name: driverName, canDelete });
 * <RegisterTable {...list.table} {...actions.table} ... />
 * <RegisterDialogs actions={actions} texts={DRIVER_TEXTS} form={DriverForm} details={DriverDetailsDialog} />
 * ```
 */
export function useRegisterActions<TRecord extends RegisterRecord>(declaration: RegisterActionsDeclaration<TRecord>) {
  const { api, texts, name, canDelete, deleteWarning, deleteDetails, onArchive, restoredDescription, preload, moreActions } = declaration;
  const subject = declaration.subject ?? name;
  const object = declaration.object ?? name;
  const archive = api.useArchive();
  const restore = api.useRestore();
  const remove = api.useDelete();
  // Records are kept after closing, so a title does not change while its dialog fades out.
  const [form, setForm] = useState<Opened<TRecord>>({ open: false });
  const [viewed, setViewed] = useState<TRecord | null>(null);
  const [toDelete, setToDelete] = useState<Opened<TRecord>>({ open: false });

  const edit = (record: TRecord) => {
    setViewed(null);
    setForm({ open: true, record });
  };

  const archiveRecord = (record: TRecord, flow: ArchiveFlow = {}) =>
    archiveWithUndo({
      archive: () => archive.mutateAsync({ uuid: record.uuid }),
      restore: () => restore.mutateAsync(record.uuid),
      archivedTitle: texts.archived,
      archivedDescription: texts.gone(subject(record)),
      restoredTitle: texts.restored,
      restoredDescription: texts.back(subject(record)),
      ...flow,
    });

  const restoreRecord = (record: TRecord) =>
    void restore.mutateAsync(record.uuid).then(
      (restored) => {
        const more = restoredDescription?.(record, restored);
        // A register's own explanation is longer: time to read it.
        snackbar.show({ type: 'success', title: texts.restored, description: more ?? texts.back(subject(record)), duration: more ? 6000 : undefined });
      },
      (error: unknown) => showActionError(error),
    );

  const deleteRecord = async (record: TRecord) => {
    try {
      await remove.mutateAsync(record.uuid);
    } catch (error) {
      showActionError(error);
      // The confirmation stays open for another try.
      throw error;
    }
    setToDelete((current) => ({ ...current, open: false }));
    snackbar.show({ type: 'success', title: texts.deleted, description: name(record) });
  };

  const rowActions = (record: TRecord): (RowAction | false)[] => [
    { label: 'Voir', icon: <VisibilityOutlined fontSize="small" />, onClick: () => setViewed(record) },
    { label: 'Modifier', icon: <EditOutlined fontSize="small" />, onClick: () => edit(record) },
    ...(moreActions?.(record) ?? []),
    record.isArchived
      ? { label: 'Restaurer', icon: <UnarchiveOutlined fontSize="small" />, onClick: () => restoreRecord(record) }
      : { label: 'Archiver', icon: <ArchiveOutlined fontSize="small" />, onClick: () => (onArchive ? onArchive(record) : void archiveRecord(record)) },
    canDelete && {
      label: 'Supprimer définitivement',
      icon: <DeleteForeverOutlined fontSize="small" />,
      onClick: () => setToDelete({ open: true, record }),
      danger: true,
    },
  ];

  const doomed = toDelete.record;
  const deleteDialog: ConfirmDialogProps = {
    open: toDelete.open,
    title: doomed ? `Supprimer définitivement ${object(doomed)} ?` : '',
    description: ['Cette action est irréversible.', deleteWarning].filter(Boolean).join(' '),
    details: doomed && deleteDetails?.(doomed),
    confirmLabel: 'Supprimer définitivement',
    onConfirm: () => (doomed ? deleteRecord(doomed) : undefined),
    onClose: () => setToDelete((current) => ({ ...current, open: false })),
  };

  const preloadDialogs = () => {
    preload?.();
    RecordFormDialogFrame.preload();
    if (canDelete) LazyConfirm.preload();
  };

  return {
    openCreate: () => setForm({ open: true }),
    /** For the buttons that open the dialogs (RegisterPageHeader's `onAddIntent`): fetches them ahead of a click. */
    preload: preloadDialogs,
    /** RegisterTable's row props: the key cell opens 'Voir', the menu offers the actions; `onIntent` fetches the dialogs. */
    table: { onOpenRow: setViewed, rowActions, onIntent: preloadDialogs },
    /** RecordFormDialog's state. */
    form: { ...form, onClose: () => setForm((current) => ({ ...current, open: false })) },
    /** The 'Voir' dialog's state; its 'Modifier' opens the form. */
    details: { record: viewed, onClose: () => setViewed(null), onEdit: edit },
    deleteDialog,
    /** Archive then offer 'Annuler', for a register whose archive asks first (the vehicles' exit date). */
    archiveWithUndo: archiveRecord,
  };
}

export type RegisterActions<TRecord extends RegisterRecord> = ReturnType<typeof useRegisterActions<TRecord>>;
