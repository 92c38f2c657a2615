import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import { Suspense, type ReactNode } from 'react';
import { useOpenedOnce } from '../lazy-component';

/** What a form dialog shows while its form arrives: the room of a few fields, a spinner in it. */
export function LoadingContent({ label = 'Chargement…' }: { label?: string }) {
  return (
    <Box role="status" aria-label={label} sx={{ minHeight: 200, display: 'grid', placeItems: 'center' }}>
      <CircularProgress size={32} aria-hidden />
    </Box>
  );
}

/** A dialog whose own module is still on its way (a slow network): the spinner, in a dialog. */
export function LoadingDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-label="Chargement…" aria-busy>
      <DialogContent>
        <LoadingContent />
      </DialogContent>
    </Dialog>
  );
}

/**
 * Renders `children` from the first time `open` is true and keeps them afterwards, so a lazy
 * dialog is fetched when first opened and still closes with its transition. Until its module has
 * arrived, a LoadingDialog stands in while open.
 */
export function OpenedOnce({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  if (!useOpenedOnce(open)) return null;
  return <Suspense fallback={open ? <LoadingDialog onClose={onClose} /> : null}>{children}</Suspense>;
}
