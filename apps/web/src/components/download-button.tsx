import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button, { type ButtonProps } from '@mui/material/Button';
import { type ReactNode, useState } from 'react';
import { downloadFile } from '../lib/api-download';
import { ApiError } from '../lib/api-error';
import type { ApiOptions } from '../lib/api-client';
import { snackbar } from './snackbar/snackbar';

export type DownloadButtonProps = {
  /** The API's file (the bearer cannot ride on a plain link: fetched, then saved). */
  path: string;
  accept: string;
  query?: ApiOptions<unknown>['query'];
  /** The file's name when the answer gives none. */
  fallbackName: string;
  /** Said in the error snackbar when the API gave no message of its own. */
  failure: string;
  variant?: ButtonProps['variant'];
  children: ReactNode;
};

/** A button that downloads a file the API makes, busy meanwhile; a refusal is said in a snackbar. */
export function DownloadButton({ path, accept, query, fallbackName, failure, variant = 'outlined', children }: DownloadButtonProps) {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      await downloadFile(path, { accept, query, fallbackName });
    } catch (error) {
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof ApiError ? error.message : failure });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant={variant} startIcon={<FileDownloadOutlined />} loading={busy} loadingPosition="start" onClick={() => void download()}>
      {children}
    </Button>
  );
}
