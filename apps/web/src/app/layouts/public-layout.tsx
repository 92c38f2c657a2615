import { Outlet } from 'react-router';
import { SnackbarHost } from '../../components/snackbar/snackbar-host';

/** Login, refresh and other pages reachable without a session: the page and the snackbar. */
export default function PublicLayout() {
  return (
    <>
      <Outlet />
      <SnackbarHost />
    </>
  );
}
