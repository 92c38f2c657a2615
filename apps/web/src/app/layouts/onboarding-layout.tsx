import { Outlet } from 'react-router';
import { LazySnackbarHost } from '../../components/snackbar/lazy-snackbar-host';
import { PublicShell } from './public-shell';
import { RequireAuth } from './require-auth';

/** The onboarding's pages (decision 033): signed in, but outside the app's navigation, in a centred card. */
export default function OnboardingLayout() {
  return (
    <PublicShell maxWidth={680}>
      <RequireAuth>{(user) => <Outlet context={user} />}</RequireAuth>
      <LazySnackbarHost />
    </PublicShell>
  );
}
