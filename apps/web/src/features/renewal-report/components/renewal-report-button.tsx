import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { snackbar } from '../../../components/snackbar/snackbar';
import { downloadFile } from '../../../lib/api-download';

export type RenewalReportButtonProps = {
  /** The dashboard's window (YYYY-MM-DD, both days included); the API's default when absent. */
  startDate?: string | undefined;
  endDate?: string | undefined;
  /** true, false, or undefined for every claim. */
  isDeclared?: boolean | undefined;
};

/**
 * « Rapport de sinistralité »: downloads the PDF of the window (GET /api/dashboard/renewal-report,
 * generated on the server; no PDF library in the web app).
 */
export function RenewalReportButton({ startDate, endDate, isDeclared }: RenewalReportButtonProps) {
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      await downloadFile('/api/dashboard/renewal-report', { accept: 'application/pdf', query: { startDate, endDate, isDeclared }, fallbackName: 'rapport-sinistralite.pdf' });
    } catch (error) {
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof Error && error.message ? error.message : "Le rapport de sinistralité n'a pas pu être téléchargé" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="outlined" startIcon={<FileDownloadOutlined />} loading={busy} loadingPosition="start" onClick={() => void download()}>
      Rapport de sinistralité
    </Button>
  );
}
