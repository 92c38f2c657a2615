import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useSnackbarMessage } from '../../components/snackbar/snackbar';
import { withChunkReload } from '../../lib/chunk-load-guard';

// The snackbar is built on MUI: loaded only when there is something to say, so the login page
// (plain elements, decision 016) does not download MUI for it.
const PublicSnackbar = lazy(withChunkReload(() => import('./public-snackbar')));

/** Login, refresh and other pages reachable without a session: the page and the snackbar. */
export default function PublicLayout() {
  const message = useSnackbarMessage();
  return (
    <>
      <Outlet />
      {message && (
        <Suspense fallback={null}>
          <PublicSnackbar />
        </Suspense>
      )}
    </>
  );
}
