import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import UnfoldMore from '@mui/icons-material/UnfoldMore';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { bestRoleLabel, type User } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { logout } from '../../lib/session';
import { Menu, MenuItem, preloadMenu } from '../../components/menu/lazy-menu';
import { intentProps } from '../../components/register/intent';

export function userInitials(user: Pick<User, 'firstName' | 'lastName'>): string {
  return `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();
}

/** Bottom of the sidebar: who is connected, 'Paramètres compte' and 'Se déconnecter'. */
export function UserMenu({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [leaving, setLeaving] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const menuId = useId();
  const fullName = `${user.firstName} ${user.lastName}`;

  const handleLogout = async () => {
    setAnchor(null);
    setLeaving(true);
    await logout();
    queryClient.clear();
    await navigate('/', { replace: true });
  };

  return (
    <>
      <ButtonBase
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        disabled={leaving}
        onClick={(event) => setAnchor(event.currentTarget)}
        {...intentProps(preloadMenu)}
        sx={{
          width: '100%',
          justifyContent: 'flex-start',
          gap: 1.5,
          p: 1.5,
          borderRadius: 2,
          textAlign: 'left',
          '&:hover': { bgcolor: 'action.hover' },
        }}
      >
        <Avatar src={user.avatar?.url ?? undefined} alt="" aria-hidden sx={{ bgcolor: 'secondary.main', width: 40, height: 40 }}>
          {userInitials(user)}
        </Avatar>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
            {fullName}
          </Typography>
          <Typography variant="caption" color="textSecondary" noWrap component="p">
            {bestRoleLabel(user.roles)}
          </Typography>
        </Box>
        <UnfoldMore fontSize="small" sx={{ color: 'text.secondary' }} />
      </ButtonBase>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <MenuItem
          component={Link}
          to="/account"
          onClick={() => {
            setAnchor(null);
            onNavigate?.();
          }}
        >
          <ListItemIcon>
            <ManageAccountsOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>Paramètres compte</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => void handleLogout()}>
          <ListItemIcon>
            <LogoutOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>Se déconnecter</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
