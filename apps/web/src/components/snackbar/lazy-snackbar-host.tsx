import { lazy, Suspense, useState } from 'react';
import { withChunkReload } from '../../lib/chunk-load-guard';
import { useSnackbarMessage } from './snackbar';

const SnackbarHost = lazy(withChunkReload(async () => ({ default: (await import('./snackbar-host')).SnackbarHost })));

/** True from the first message on: a lazily loaded host then stays mounted (closing transitions). */
export function useSnackbarNeeded(): boolean {
  const message = useSnackbarMessage();
  const [needed, setNeeded] = useState(message !== null);
  if (message !== null && !needed) setNeeded(true);
  return needed;
}

/**
 * The snackbar host (MUI's Snackbar, Alert, progress bars) loaded with the first message, not
 * with the page: most pages show none before the person acts (issue 10). Needs a theme above it.
 */
export function LazySnackbarHost() {
  return useSnackbarNeeded() ? (
    <Suspense fallback={null}>
      <SnackbarHost />
    </Suspense>
  ) : null;
}
