import Button from '@mui/material/Button';
import { Suspense, useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';

// The registers' export menu (CSV, Excel), already a chunk of its own, fetched when first used.
const ExportMenu = lazyComponent(() => import('../../../components/register/export-menu').then((module) => module.ExportMenu));

/**
 * 'Exporter' the table's view (search and sort; every organization). The registers' ExportButton
 * in look; not imported, so that the registers' first-load chunks stay as they are.
 */
export function BrokerExportButton({ query }: { query: Record<string, unknown> }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        variant="outlined"
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        onClick={(event) => setAnchor(event.currentTarget)}
        onMouseEnter={ExportMenu.preload}
        onFocus={ExportMenu.preload}
        sx={{ bgcolor: 'background.paper', flexShrink: 0 }}
      >
        Exporter
      </Button>
      {anchor && (
        <Suspense fallback={null}>
          <ExportMenu anchor={anchor} onClose={() => setAnchor(null)} path="/api/broker/organization/export" query={query} what="les organisations" />
        </Suspense>
      )}
    </>
  );
}
