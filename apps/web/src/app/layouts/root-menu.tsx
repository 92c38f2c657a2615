import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { NavLink } from 'react-router';
import { ROOT_MENU_WIDTH } from '../theme';
import SpaceDashboardOutlined from '@mui/icons-material/SpaceDashboardOutlined';
import WorkspacesOutlined from '@mui/icons-material/WorkspacesOutlined';

/**
 * The ROOT icon menu's entries (SPEC: 'Tableau de bord' → /dashboard, 'Espaces' → /root/spaces),
 * kept here rather than in menu-config.ts: only ROOT users load them.
 */
export const ROOT_MENU = [
  { label: 'Tableau de bord', to: '/dashboard', icon: SpaceDashboardOutlined },
  { label: 'Espaces', to: '/root/spaces', icon: WorkspacesOutlined },
] as const;

/** Narrow icon menu of ROOT users, at the far left of the screen. */
export function RootMenu({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Box
      component="nav"
      aria-label="Menu root"
      sx={{
        width: ROOT_MENU_WIDTH,
        flexShrink: 0,
        height: '100%',
        bgcolor: '#0f172a',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 1,
        py: 2,
      }}
    >
      {ROOT_MENU.map(({ label, to, icon: Icon }) => (
        <Tooltip key={to} title={label} placement="right">
          <IconButton
            component={NavLink}
            to={to}
            end
            aria-label={label}
            onClick={onNavigate}
            sx={{
              color: '#cbd5e1',
              borderRadius: 2,
              width: 48,
              height: 48,
              '&.active': { bgcolor: 'rgba(255,255,255,0.14)', color: '#ffffff' },
              '&:hover': { bgcolor: 'rgba(255,255,255,0.08)' },
              '&.Mui-focusVisible': { outline: '2px solid #93c5fd', outlineOffset: 2 },
            }}
          >
            <Icon />
          </IconButton>
        </Tooltip>
      ))}
    </Box>
  );
}
