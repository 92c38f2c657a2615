import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import { downloadFile } from '../../lib/api-download';
import { snackbar } from '../snackbar/snackbar';
import { AnchoredMenu } from './anchored-menu';

const FORMATS = [
  { format: 'csv', label: 'CSV', hint: 'Séparateur « ; », pour Excel et les tableurs', accept: 'text/csv' },
  { format: 'xlsx', label: 'Excel', hint: 'Classeur .xlsx, dates et montants typés', accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
] as const;

export type ExportMenuProps = {
  anchor: HTMLElement | null;
  onClose: () => void;
  path: string;
  query: Record<string, unknown>;
  what: string;
};

/** The export menu (export-button.tsx): downloads the list's view as the file chosen. */
export function ExportMenu({ anchor, onClose, path, query, what }: ExportMenuProps) {
  async function download(format: (typeof FORMATS)[number]) {
    onClose();
    const loading = snackbar.show({ type: 'loading', title: 'Export en cours', description: `Préparation du fichier : ${what}` });
    try {
      const fileName = await downloadFile(path, { accept: format.accept, query: { ...query, format: format.format }, fallbackName: `export.${format.format}` });
      snackbar.show({ type: 'success', title: 'Export terminé', description: fileName ?? undefined });
    } catch (error) {
      snackbar.hide(loading);
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof Error && error.message ? error.message : "L'export n'a pas pu être téléchargé" });
    }
  }

  return (
    <AnchoredMenu anchor={anchor} onClose={onClose}>
      {FORMATS.map((format) => (
        <MenuItem key={format.format} onClick={() => void download(format)}>
          <ListItemText primary={format.label} secondary={format.hint} />
        </MenuItem>
      ))}
    </AnchoredMenu>
  );
}
