import Button from '@mui/material/Button';
import { Suspense, useState } from 'react';
import { lazyComponent } from '../lazy-component';
import { intentProps } from './intent';

// The menu, its icons and the download are fetched on a sign of intent: the register's first load
// carries this button only (no icon: /vehicules is at its size budget).
const ExportMenu = lazyComponent(() => import('./export-menu').then((module) => module.ExportMenu));

export type ExportButtonProps = {
  /** The register's export route: '/api/vehicule/export'. */
  path: string;
  /** The list's query as it reads its page: the file is its view (every row, in its order). */
  query: Record<string, unknown>;
  /** What is exported, for the messages: 'les véhicules'. */
  what: string;
};

/** 'Exporter' on a register's toolbar: a menu of CSV and Excel files of the list's current view. */
export function ExportButton(props: ExportButtonProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        variant="outlined"
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        onClick={(event) => setAnchor(event.currentTarget)}
        {...intentProps(ExportMenu.preload)}
        sx={{ bgcolor: 'background.paper', flexShrink: 0 }}
      >
        Exporter
      </Button>
      {anchor && (
        <Suspense fallback={null}>
          <ExportMenu anchor={anchor} onClose={() => setAnchor(null)} {...props} />
        </Suspense>
      )}
    </>
  );
}
