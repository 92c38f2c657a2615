import HelpOutlineOutlined from '@mui/icons-material/HelpOutlineOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import type { User } from '@flotte/contract';
import { NavLink } from 'react-router';
import { OrganizationSwitcher } from '../../features/organizations/components/organization-switcher';
import { MAIN_MENU, SUPERADMIN_MENU, type MenuEntry } from './menu-config';
import { UserMenu } from './user-menu';

const itemSx = { borderRadius: 2, mx: 1, px: 1.5, py: 0.75, minHeight: 44 } as const;

function LockedItem({ entry }: { entry: MenuEntry }) {
  const Icon = entry.icon;
  // Not a link and not focusable: the feature is not there yet.
  return (
    <ListItem disablePadding aria-disabled="true" sx={{ ...itemSx, width: 'auto', color: 'text.secondary', cursor: 'default' }}>
      <ListItemIcon sx={{ minWidth: 36, color: 'inherit', opacity: 0.7 }}>
        <Icon fontSize="small" />
      </ListItemIcon>
      <ListItemText primary={entry.label} slotProps={{ primary: { variant: 'body2' } }} />
      <Chip
        label="À venir"
        size="small"
        sx={{ height: 20, fontSize: 11, fontWeight: 600, bgcolor: '#eef2f7', color: '#374151', ml: 1 }}
      />
    </ListItem>
  );
}

function MenuLink({ entry, onNavigate }: { entry: MenuEntry; onNavigate?: () => void }) {
  const Icon = entry.icon;
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={NavLink}
        to={entry.to}
        onClick={onNavigate}
        sx={{
          ...itemSx,
          '&.active': { bgcolor: 'primary.light', color: 'primary.dark', '& .MuiListItemIcon-root': { color: 'primary.dark' } },
        }}
      >
        <ListItemIcon sx={{ minWidth: 36 }}>
          <Icon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={entry.label} slotProps={{ primary: { variant: 'body2', sx: { fontWeight: 600 } } }} />
      </ListItemButton>
    </ListItem>
  );
}

function MenuEntries({ entries, onNavigate }: { entries: readonly MenuEntry[]; onNavigate?: () => void }) {
  return entries.map((entry) =>
    entry.locked ? <LockedItem key={entry.to} entry={entry} /> : <MenuLink key={entry.to} entry={entry} onNavigate={onNavigate} />,
  );
}

type SidebarProps = {
  user: User;
  onOpenSupport: () => void;
  onSwitchOrganization: (organizationUuid: string) => void;
  /** Called after a navigation, so the mobile drawer can close. */
  onNavigate?: () => void;
};

/** Sidebar content: organization, main menu, superadmin menu, support and the user menu. */
export function Sidebar({ user, onOpenSupport, onSwitchOrganization, onNavigate }: SidebarProps) {
  const isSuperadmin = user.roles.includes('SUPERADMIN');
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0, flex: 1 }}>
      <Box sx={{ p: 1.5 }}>
        <OrganizationSwitcher user={user} onSwitch={onSwitchOrganization} />
      </Box>
      <Divider />
      <Box component="nav" aria-label="Menu principal" sx={{ flex: 1, overflowY: 'auto', py: 1 }}>
        <List dense disablePadding sx={{ display: 'grid', gap: 0.25 }}>
          <MenuEntries entries={MAIN_MENU} onNavigate={onNavigate} />
        </List>
        {isSuperadmin && (
          <List
            dense
            disablePadding
            sx={{ display: 'grid', gap: 0.25, mt: 1 }}
            subheader={
              <ListSubheader disableSticky sx={{ lineHeight: '32px', fontWeight: 700, color: 'text.secondary' }}>
                Superadmin
              </ListSubheader>
            }
          >
            <MenuEntries entries={SUPERADMIN_MENU} onNavigate={onNavigate} />
          </List>
        )}
      </Box>
      <Divider />
      <List dense disablePadding sx={{ py: 1 }}>
        <ListItem disablePadding>
          <ListItemButton onClick={onOpenSupport} sx={itemSx}>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <HelpOutlineOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Aide et support" slotProps={{ primary: { variant: 'body2', sx: { fontWeight: 600 } } }} />
          </ListItemButton>
        </ListItem>
      </List>
      <Box sx={{ px: 1, pb: 1.5 }}>
        <UserMenu user={user} onNavigate={onNavigate} />
      </Box>
    </Box>
  );
}
