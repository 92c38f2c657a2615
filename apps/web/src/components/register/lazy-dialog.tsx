import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { withChunkReload } from '../../lib/chunk-load-guard';

/** A component loaded on first render (React.lazy) that can be fetched earlier, on a sign of intent. */
export type LazyComponent<P> = ComponentType<P> & {
  /** Starts the download (once); never rejects: a failure is told when the component renders. */
  preload: () => void;
};

/**
 * A dialog or form kept out of the page's first load: its module is fetched the first time it
 * renders, or earlier through `preload()` (hover, focus or touch of the button that opens it). A
 * chunk gone after a new deployment reloads the page once (withChunkReload); any other failure
 * reaches the route's error element.
 *
 * ```tsx
 * const DriverForm = lazyComponent(() => import('…/driver-form').then((m) => m.DriverForm));
 * ```
 */
export function lazyComponent<P>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  const guarded = withChunkReload(load);
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  // Once arrived, rendered directly: no Suspense fallback for a frame on the next opening.
  let Resolved: ComponentType<P> | undefined;
  const once = () => {
    pending ??= guarded().then(
      (component) => {
        Resolved = component;
        return { default: component };
      },
      (error: unknown) => {
        // The next render or hover tries again (a network blip), rather than keeping the failure.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(once) as unknown as ComponentType<P>;
  function LazyComponent(props: P & object) {
    const Component = Resolved ?? Lazy;
    return <Component {...props} />;
  }
  return Object.assign(LazyComponent, { preload: () => void once().catch(() => undefined) }) as LazyComponent<P>;
}

/** Starts the download of several lazy components, e.g. a register's form and details dialog. */
export function preloadAll(...components: readonly { preload: () => void }[]) {
  for (const component of components) component.preload();
}

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
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return <Suspense fallback={open ? <LoadingDialog onClose={onClose} /> : null}>{children}</Suspense>;
}
