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
import type { BillingFeature, User } from '@flotte/contract';
import { Suspense, useState } from 'react';
import { NavLink } from 'react-router';
import { lazyComponent } from '../../components/lazy-component';
import { OrganizationSwitcher } from '../../features/organizations/components/organization-switcher';
import { MAIN_MENU, SUPERADMIN_MENU, type MenuEntry } from './menu-config';
import { UserMenu } from './user-menu';

// Its own chunk: the count (and the alerts' API module) stays out of the logged layout's first load.
const UnreadAlertsBadge = lazyComponent(() => import('../../features/alerts/components/unread-alerts-badge').then((m) => m.UnreadAlertsBadge));

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

function MenuLink({ entry, badge, onNavigate }: { entry: MenuEntry; badge: boolean; onNavigate?: () => void }) {
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
        {badge && entry.badge === 'unreadAlerts' && (
          <Suspense fallback={null}>
            <UnreadAlertsBadge />
          </Suspense>
        )}
      </ListItemButton>
    </ListItem>
  );
}

const PlanLocks = lazyComponent(() => import('../../features/billing/components/plan-locks').then((m) => m.PlanLocks));
const NOTHING_LOCKED: ReadonlySet<BillingFeature> = new Set();

/**
 * An entry is also locked while the organization's plan lacks its feature (decision 044); while
 * the plan is not known yet (null), a feature's entry is a link without its badge: the badge's
 * count is not asked of a feature the API may refuse.
 */
function MenuEntries({ entries, lockedFeatures, onNavigate }: { entries: readonly MenuEntry[]; lockedFeatures: ReadonlySet<BillingFeature> | null; onNavigate?: () => void }) {
  return entries.map((entry) =>
    entry.locked || (entry.feature !== undefined && lockedFeatures?.has(entry.feature)) ? (
      <LockedItem key={entry.to} entry={entry} />
    ) : (
      <MenuLink key={entry.to} entry={entry} badge={entry.feature === undefined || lockedFeatures !== null} onNavigate={onNavigate} />
    ),
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
  // Only an organization outside any space pays for itself and may lack a feature.
  const organization = user.currentOrganizationUser?.organization;
  const billedAlone = organization !== undefined && organization.environment === null;
  const [lockedFeatures, setLockedFeatures] = useState<ReadonlySet<BillingFeature> | null>(null);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0, flex: 1 }}>
      <Box sx={{ p: 1.5 }}>
        <OrganizationSwitcher user={user} onSwitch={onSwitchOrganization} />
      </Box>
      <Divider />
      {billedAlone && (
        <Suspense fallback={null}>
          <PlanLocks onChange={setLockedFeatures} />
        </Suspense>
      )}
      <Box component="nav" aria-label="Menu principal" sx={{ flex: 1, overflowY: 'auto', py: 1 }}>
        <List dense disablePadding sx={{ display: 'grid', gap: 0.25 }}>
          <MenuEntries entries={MAIN_MENU} lockedFeatures={billedAlone ? lockedFeatures : NOTHING_LOCKED} onNavigate={onNavigate} />
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
            <MenuEntries entries={SUPERADMIN_MENU} lockedFeatures={NOTHING_LOCKED} onNavigate={onNavigate} />
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
