import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import CarCrashOutlined from '@mui/icons-material/CarCrashOutlined';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import DirectionsCarOutlined from '@mui/icons-material/DirectionsCarOutlined';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import CorporateFareOutlined from '@mui/icons-material/CorporateFareOutlined';
import AddAlertOutlined from '@mui/icons-material/AddAlertOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import type { BillingFeature } from '@flotte/contract';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentType } from 'react';

export type MenuEntry = Readonly<{
  label: string;
  to: string;
  icon: ComponentType<SvgIconProps>;
  /** Locked: greyed, not navigable, badge 'À venir'. Unlock an entry when its feature ships. */
  locked: boolean;
  /** The plan's feature that opens the entry (decision 044): locked 'À venir' while the organization's plan lacks it. */
  feature?: BillingFeature;
  /** A count shown beside the label, loaded lazily by the sidebar. */
  badge?: 'unreadAlerts';
}>;

/** Sidebar menu, in the order of SPEC section 2. */
export const MAIN_MENU: readonly MenuEntry[] = [
  { label: 'Tableau de bord', to: '/dashboard', icon: DashboardOutlined, locked: false },
  { label: 'Sinistres', to: '/sinisters', icon: CarCrashOutlined, locked: false },
  { label: 'Conducteurs', to: '/drivers', icon: BadgeOutlined, locked: false },
  { label: 'Véhicules', to: '/vehicules', icon: DirectionsCarOutlined, locked: false },
  { label: 'Gestion documentaire', to: '/ged', icon: FolderOpenOutlined, locked: false, feature: 'documents' },
  { label: 'Alertes prévention', to: '/alerts', icon: NotificationsActiveOutlined, locked: false, feature: 'alerts', badge: 'unreadAlerts' },
  { label: 'Paramètres', to: '/parameters', icon: SettingsOutlined, locked: false },
];

export const SUPERADMIN_MENU: readonly MenuEntry[] = [
  { label: 'Gestion organisations', to: '/superadmin/organization', icon: CorporateFareOutlined, locked: false },
  { label: 'Gestion alertes', to: '/superadmin/alerts', icon: AddAlertOutlined, locked: false },
  { label: 'Paramètres', to: '/superadmin/settings', icon: TuneOutlined, locked: false },
];
