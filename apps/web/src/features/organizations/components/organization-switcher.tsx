import CheckIcon from '@mui/icons-material/Check';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { OrganizationSummary, User } from '@flotte/contract';
import { useId, useState, type MouseEvent } from 'react';
import { useEnvironmentOrganizations } from '../api/get-environment-organizations';
import { useMyOrganizationUsers } from '../api/get-my-organization-users';
import { OrganizationAvatar } from '../../../components/organization-avatar';
import { Menu, MenuItem, preloadMenu } from '../../../components/menu/lazy-menu';
import { intentProps } from '../../../components/register/intent';

// Read by screen readers only (same rules as MUI's visuallyHidden).
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

export const NO_ORGANIZATION_MESSAGE =
  'Bienvenue sur votre environnement, nous vous invitons à ajouter une première organisation.';

function OrganizationIdentity({ organization }: { organization: OrganizationSummary }) {
  return (
    <>
      <OrganizationAvatar organization={organization} />
      <Box sx={{ minWidth: 0, flex: 1, textAlign: 'left' }}>
        <Typography variant="caption" color="textSecondary" component="p">
          Organisation
        </Typography>
        <Typography variant="subtitle2" component="p" noWrap title={organization.title}>
          {organization.title}
        </Typography>
      </Box>
    </>
  );
}

type OrganizationSwitcherProps = { user: User; onSwitch: (organizationUuid: string) => void };

/**
 * Top of the sidebar. A static block when the user has exactly one organization link; otherwise a
 * dropdown: a superadmin picks among its environment's organizations, others among their links.
 */
export function OrganizationSwitcher({ user, onSwitch }: OrganizationSwitcherProps) {
  const isSuperadmin = user.roles.includes('SUPERADMIN');
  const links = useMyOrganizationUsers(user.uuid);
  const environmentOrganizations = useEnvironmentOrganizations(isSuperadmin);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();

  const current = user.currentOrganizationUser?.organization ?? null;
  const options: OrganizationSummary[] = isSuperadmin
    ? (environmentOrganizations.data?.data ?? [])
    : (links.data?.data.map((link) => link.organization) ?? []);
  const canSwitch = isSuperadmin ? options.length > 0 : (links.data?.total ?? 0) > 1;

  const open = (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget);
  const choose = (organizationUuid: string) => {
    setAnchor(null);
    if (organizationUuid !== current?.uuid) onSwitch(organizationUuid);
  };

  const menu = canSwitch && (
    <Menu
      id={menuId}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={() => setAnchor(null)}
      slotProps={{ paper: { sx: { width: 280, maxHeight: 420 } } }}
    >
      {options.map((organization) => {
        const selected = organization.uuid === current?.uuid;
        return (
          <MenuItem key={organization.uuid} selected={selected} onClick={() => choose(organization.uuid)} sx={{ gap: 1.5 }}>
            <OrganizationAvatar organization={organization} size={28} />
            <ListItemText primary={organization.title} slotProps={{ primary: { noWrap: true } }} />
            {selected && (
              <ListItemIcon sx={{ minWidth: 0 }}>
                <CheckIcon fontSize="small" aria-label="Organisation actuelle" />
              </ListItemIcon>
            )}
          </MenuItem>
        );
      })}
    </Menu>
  );

  if (!current) {
    const environmentTitle = user.currentEnvironmentUser?.environment.title ?? 'Votre environnement';
    return (
      <Box sx={{ p: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <OrganizationAvatar organization={{ title: environmentTitle, avatar: null }} />
          <Typography variant="subtitle2" component="p" sx={{ minWidth: 0 }} noWrap title={environmentTitle}>
            {environmentTitle}
          </Typography>
        </Box>
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          {NO_ORGANIZATION_MESSAGE}
        </Typography>
        {canSwitch && (
          <>
            <Button
              size="small"
              variant="outlined"
              sx={{ mt: 1 }}
              aria-haspopup="menu"
              aria-controls={anchor ? menuId : undefined}
              onClick={open}
              {...intentProps(preloadMenu)}
            >
              Choisir une organisation
            </Button>
            {menu}
          </>
        )}
      </Box>
    );
  }

  if (!canSwitch) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, p: 1 }}>
        <OrganizationIdentity organization={current} />
      </Box>
    );
  }

  return (
    <>
      <ButtonBase
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={open}
        {...intentProps(preloadMenu)}
        sx={{ width: '100%', display: 'flex', alignItems: 'center', gap: 1.5, p: 1, borderRadius: 2, '&:hover': { bgcolor: 'action.hover' } }}
      >
        <Box component="span" sx={visuallyHidden}>
          Changer d&apos;organisation.{' '}
        </Box>
        <OrganizationIdentity organization={current} />
        <ExpandMoreIcon fontSize="small" sx={{ color: 'text.secondary' }} />
      </ButtonBase>
      {menu}
    </>
  );
}
