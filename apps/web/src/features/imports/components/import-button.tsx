import Button from '@mui/material/Button';
import type { ImportEntity } from '@flotte/contract';
import { useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { intentProps } from '../../../components/register/intent';
import { OpenedOnce } from '../../../components/register/lazy-dialog';

// The stepper is fetched when first opened, or when the button is hovered, focused or touched:
// the registers' first load stays within its size budget.
const ImportDialog = lazyComponent(() => import('./import-dialog').then((module) => module.ImportDialog));

/** 'Importer' in a register's header: opens the import stepper for `entity`. */
export function ImportButton({ entity }: { entity: ImportEntity }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)} {...intentProps(ImportDialog.preload)}>
        Importer
      </Button>
      <OpenedOnce open={open} onClose={() => setOpen(false)}>
        <ImportDialog entity={entity} open={open} onClose={() => setOpen(false)} />
      </OpenedOnce>
    </>
  );
}
