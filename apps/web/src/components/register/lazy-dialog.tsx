import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Suspense, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useOpenedOnce } from '../lazy-component';

/** What a form dialog shows while its form arrives: the room of a few fields, a spinner in it. */
export function LoadingContent({ label = 'Chargement…' }: { label?: string }) {
  return (
    <Box role="status" aria-label={label} sx={{ minHeight: 200, display: 'grid', placeItems: 'center' }}>
      <CircularProgress size={32} aria-hidden />
    </Box>
  );
}

/**
 * A dialog whose own module is still on its way (a slow network): its title if known, and a
 * spinner, in a frame drawn as a dialog over a dimmed page; Escape or a click beside it closes it.
 * Plain boxes rather than MUI's Modal (its focus trap, portal and transitions, ≈ 4 kB): it stands
 * for a moment, and MUI's dialogs come with the first dialog rather than with every register's
 * first load (issue 10).
 */
export function LoadingDialog({ onClose, title }: { onClose: () => void; title?: string }) {
  const titleId = useId();
  const frame = useRef<HTMLDivElement>(null);
  // Focus in the frame while it stands, then back where it was (the button that opened it), so the
  // dialog that replaces it takes the focus from there and gives it back there when closed.
  useLayoutEffect(() => {
    const before = document.activeElement;
    frame.current?.focus();
    return () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  return (
    <Box
      onClick={(event) => event.target === event.currentTarget && onClose()}
      sx={{ position: 'fixed', inset: 0, zIndex: 'modal', bgcolor: 'rgba(0, 0, 0, 0.5)', display: 'grid', placeItems: 'center', p: 4 }}
    >
      <Paper
        ref={frame}
        role="dialog"
        aria-modal
        aria-busy
        {...(title ? { 'aria-labelledby': titleId } : { 'aria-label': 'Chargement…' })}
        tabIndex={-1}
        elevation={24}
        onKeyDown={(event) => event.key === 'Escape' && onClose()}
        sx={{ width: '100%', maxWidth: 600, outline: 0 }}
      >
        {title && (
          <Typography id={titleId} variant="h6" component="h2" sx={{ px: 3, pt: 2 }}>
            {title}
          </Typography>
        )}
        <LoadingContent />
      </Paper>
    </Box>
  );
}

/**
 * Renders `children` from the first time `open` is true and keeps them afterwards, so a lazy
 * dialog is fetched when first opened and still closes with its transition. Until its module has
 * arrived, a LoadingDialog (with `title`, when the dialog's is known) stands in while open.
 */
export function OpenedOnce({ open, onClose, title, children }: { open: boolean; onClose: () => void; title?: string; children: ReactNode }) {
  if (!useOpenedOnce(open)) return null;
  return <Suspense fallback={open ? <LoadingDialog onClose={onClose} title={title} /> : null}>{children}</Suspense>;
}
