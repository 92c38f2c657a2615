import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useSnackbarNeeded } from '../../components/snackbar/lazy-snackbar-host';
import { withChunkReload } from '../../lib/chunk-load-guard';

// The snackbar is built on MUI: loaded with the first message, so the login page (plain elements,
// decision 016) does not download MUI for it.
const PublicSnackbar = lazy(withChunkReload(() => import('./public-snackbar')));

/** Login, refresh and other pages reachable without a session: the page and the snackbar. */
export default function PublicLayout() {
  const snackbarNeeded = useSnackbarNeeded();
  return (
    <>
      <Outlet />
      {snackbarNeeded && (
        <Suspense fallback={null}>
          <PublicSnackbar />
        </Suspense>
      )}
    </>
  );
}
