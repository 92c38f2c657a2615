import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import { Suspense, useId, useState } from 'react';
import { lazyComponent, useOpenedOnce } from '../lazy-component';
import { intentProps } from './intent';

// The menu and the download are fetched on a sign of intent: the register's first load carries the button only.
const ExportMenu = lazyComponent(() => import('./export-menu').then((module) => module.ExportMenu));

export type ExportButtonProps = {
  /** The register's export route: '/api/vehicule/export'. */
  path: string;
  /** The list's query as it reads its page: the file is its view (every row, in its order). */
  query: Record<string, unknown>;
  /** What is exported, for the messages: 'les véhicules'. */
  what: string;
  disabled?: boolean;
};

/** 'Exporter' on a register's toolbar: a menu of CSV and Excel files of the list's current view. */
export function ExportButton({ path, query, what, disabled }: ExportButtonProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const opened = useOpenedOnce(anchor !== null);
  const menuId = useId();
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<FileDownloadOutlined />}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor ? menuId : undefined}
        disabled={disabled}
        onClick={(event) => setAnchor(event.currentTarget)}
        {...intentProps(ExportMenu.preload)}
        sx={{ bgcolor: 'background.paper', flexShrink: 0 }}
      >
        Exporter
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ExportMenu id={menuId} anchor={anchor} onClose={() => setAnchor(null)} path={path} query={query} what={what} />
        </Suspense>
      )}
    </>
  );
}
