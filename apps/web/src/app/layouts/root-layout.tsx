import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { NotFoundPage } from '../../components/errors/not-found-page';
import { SnackbarHost } from '../../components/snackbar/snackbar-host';
import { ROOT_MENU_WIDTH } from '../theme';
import { MuiProviders } from '../providers';
import { RequireAuth } from './require-auth';
import { RootMenu } from './root-menu';

/** Root area (/root/*): the icon menu and the page. Signed in, and ROOT only: anyone else gets the 404 page. */
export default function RootLayout() {
  return (
    <MuiProviders>
      <RequireAuth>
        {(user) =>
          !user.roles.includes('ROOT') ? (
            <NotFoundPage />
          ) : (
            <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}>
              <Box sx={{ position: 'fixed', inset: '0 auto 0 0', width: ROOT_MENU_WIDTH }}>
                <RootMenu />
              </Box>
              <Box component="main" id="main-content" sx={{ pl: `${ROOT_MENU_WIDTH}px` }}>
                <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, md: 4 }, py: 4 }}>
                  <Outlet />
                </Box>
              </Box>
              <SnackbarHost />
            </Box>
          )
        }
      </RequireAuth>
    </MuiProviders>
  );
}
