import CloseIcon from '@mui/icons-material/Close';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { CGU_VERSION, type User } from '@flotte/contract';
import { Suspense, useState } from 'react';
import { Navigate, Outlet } from 'react-router';
import type { LoggedOutletContext } from '../../lib/logged-outlet';
import { lazyComponent, useOpenedOnce } from '../../components/lazy-component';
import { LazySnackbarHost } from '../../components/snackbar/lazy-snackbar-host';
import { needsOnboarding } from '../../features/onboarding/needs-onboarding';
import { useSwitchOrganization } from '../../features/organizations/api/switch-organization';
import { ROOT_MENU_WIDTH, SIDEBAR_WIDTH } from '../theme';
import { MuiProviders } from '../providers';
import { RequireAuth } from './require-auth';
import { Sidebar } from './sidebar';

// Loaded when first opened, not with the page (lazyComponent): the phone's navigation drawer
// (Drawer, Slide), the operator's icon menu (tooltips, so Popper: only ROOT users download it), and
// the dialogs a person opens now and then.
const MobileNavigation = lazyComponent(() => import('./mobile-navigation').then((module) => module.MobileNavigation));
const RootMenu = lazyComponent(() => import('./root-menu').then((module) => module.RootMenu));
// Asked only of a user who has not accepted the terms in force: its module comes then.
const CguDialog = lazyComponent(() => import('../../features/account/components/cgu-dialog').then((module) => module.CguDialog));
const SupportDialog = lazyComponent(() => import('../../features/support/components/support-dialog').then((module) => module.SupportDialog));
const OrganizationLoadingDialog = lazyComponent(() =>
  import('../../features/organizations/components/organization-loading-dialog').then((module) => module.OrganizationLoadingDialog),
);

/**
 * Which navigation to render: the phone's top bar or the desktop's sidebar, not both hidden by CSS
 * (the sidebar alone is a third of a first render's work on a phone's CPU, issue 10). Both where
 * media queries cannot be read (CSS then shows the right one).
 */
function useNavigationLayout(): 'mobile' | 'desktop' | 'both' {
  const theme = useTheme();
  const canQuery = typeof window !== 'undefined' && typeof window.matchMedia === 'function';
  const desktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  if (!canQuery) return 'both';
  return desktop ? 'desktop' : 'mobile';
}

function LoggedShell({ user }: { user: User }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  const [supportOpen, setSupportOpen] = useState(false);
  const { switchOrganization, switching } = useSwitchOrganization();
  const supportMounted = useOpenedOnce(supportOpen);
  const mobileNavigationMounted = useOpenedOnce(mobileOpen);
  const switchingMounted = useOpenedOnce(switching);
  const isRoot = user.roles.includes('ROOT');
  const layout = useNavigationLayout();
  const navWidth = SIDEBAR_WIDTH + (isRoot ? ROOT_MENU_WIDTH : 0);

  const navigation = (onNavigate?: () => void) => (
    <Box sx={{ display: 'flex', height: '100%' }}>
      {isRoot && (
        <Suspense fallback={<Box sx={{ width: ROOT_MENU_WIDTH, flexShrink: 0 }} />}>
          <RootMenu onNavigate={onNavigate} />
        </Suspense>
      )}
      <Sidebar
        user={user}
        onNavigate={onNavigate}
        onOpenSupport={() => {
          onNavigate?.();
          setSupportOpen(true);
        }}
        onSwitchOrganization={(organizationUuid) => {
          onNavigate?.();
          void switchOrganization(organizationUuid);
        }}
      />
    </Box>
  );

  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}>
      {layout !== 'desktop' && (
        <>
          {/* Mobile: top bar and a temporary drawer. */}
          <AppBar
            component="header"
            position="sticky"
            color="inherit"
            elevation={0}
            sx={{ display: { md: 'none' }, borderBottom: 1, borderColor: 'divider' }}
          >
            <Toolbar sx={{ gap: 1 }}>
              <IconButton
                edge="start"
                aria-label={mobileOpen ? 'Fermer le menu' : 'Ouvrir le menu'}
                aria-expanded={mobileOpen}
                aria-controls="mobile-navigation"
                onClick={() => {
                  if (mobileOpen) return setMobileOpen(false);
                  // Opened once its module is there, in the same render as this button's new state; a
                  // failed load still opens: the lazy component then shows the route's error.
                  const open = () => setMobileOpen(true);
                  void MobileNavigation.load().then(open, open);
                }}
              >
                {mobileOpen ? <CloseIcon /> : <MenuIcon />}
              </IconButton>
              <Typography component="div" variant="h6" noWrap>
                Tableau de bord
              </Typography>
            </Toolbar>
          </AppBar>
          {mobileNavigationMounted && (
            <Suspense fallback={null}>
              <MobileNavigation open={mobileOpen} width={navWidth} onClose={() => setMobileOpen(false)}>
                {navigation(() => setMobileOpen(false))}
              </MobileNavigation>
            </Suspense>
          )}
        </>
      )}

      {layout !== 'mobile' && (
        <>
          {/* Desktop: a fixed sidebar, after the root icon menu for ROOT users. */}
          <Box
            component="header"
            sx={{ display: { xs: 'none', md: 'block' }, position: 'fixed', inset: '0 auto 0 0', width: navWidth, zIndex: 'appBar' }}
          >
            {/* A permanent drawer's look (MUI's Drawer brings Modal and Slide for the phone's only). */}
            <Paper square elevation={0} sx={{ width: navWidth, height: '100dvh', overflowY: 'auto', borderRight: 1, borderColor: 'divider' }}>
              {navigation()}
            </Paper>
          </Box>

        </>
      )}

      <Box
        component="main"
        id="main-content"
        sx={{
          pl: { md: `${navWidth}px` },
          minHeight: { md: '100dvh' },
        }}
      >
        <Box sx={{ maxWidth: 1200, mx: 'auto', px: { xs: 2, sm: 3, md: 4 }, py: { xs: 3, md: 4 } }}>
          <Outlet context={{ switchOrganization } satisfies LoggedOutletContext} />
        </Box>
      </Box>

      {supportMounted && (
        <Suspense fallback={null}>
          <SupportDialog open={supportOpen} onClose={() => setSupportOpen(false)} />
        </Suspense>
      )}
      {switchingMounted && (
        <Suspense fallback={null}>
          <OrganizationLoadingDialog open={switching} />
        </Suspense>
      )}
      {user.cguAcceptedVersion !== CGU_VERSION && (
        <Suspense fallback={null}>
          <CguDialog firstTime={user.cguAcceptedVersion === null} />
        </Suspense>
      )}
      <LazySnackbarHost />
    </Box>
  );
}

/** Pages of a logged-in user: guarded, user loaded, sidebar, support and organization dialogs. */
export default function LoggedLayout() {
  return (
    <MuiProviders>
      {/* A user without organization (or who left the onboarding midway) finishes it first (decision 033). */}
      <RequireAuth>{(user) => (needsOnboarding(user) ? <Navigate to="/onboarding" replace /> : <LoggedShell user={user} />)}</RequireAuth>
    </MuiProviders>
  );
}
