import { Suspense } from 'react';
import { lazyComponent, useOpenedOnce } from '../lazy-component';
import { useSnackbarMessage } from './snackbar';

const SnackbarHost = lazyComponent(() => import('./snackbar-host').then((module) => module.SnackbarHost));

/** True from the first message on: a lazily loaded host then stays mounted (closing transitions). */
export function useSnackbarNeeded(): boolean {
  return useOpenedOnce(useSnackbarMessage() !== null);
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
