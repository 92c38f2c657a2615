import MoreVert from '@mui/icons-material/MoreVert';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type { ReactNode } from 'react';
import { intentProps } from './intent';
import { AnchoredMenu } from './anchored-menu';
import { MenuItem, preloadMenu } from '../menu/lazy-menu';

export type RowAction = {
  /** Menu item text, e.g. 'Archiver'. */
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  /** Red and after a divider: for 'Supprimer définitivement' and the like. */
  danger?: boolean;
  disabled?: boolean;
};

/** The '⋮' button of a row, named after it: 'Actions pour Élodie Écuyer'. */
export function RowActionsButton({ label, onOpen, onIntent }: { label: string; onOpen: (anchor: HTMLElement) => void; onIntent?: () => void }) {
  return (
    <IconButton
      aria-label={`Actions pour ${label}`}
      aria-haspopup="menu"
      onClick={(event) => onOpen(event.currentTarget)}
      {...intentProps(() => {
        preloadMenu();
        onIntent?.();
      })}
      size="small"
    >
      <MoreVert fontSize="small" />
    </IconButton>
  );
}

export type RowActionsMenuProps = {
  /** The button that opened the menu; closed when null. */
  anchor: HTMLElement | null;
  actions: readonly RowAction[];
  onClose: () => void;
};

/** The actions of one row; the dangerous ones last, after a divider. */
export function RowActionsMenu({ anchor, actions, onClose }: RowActionsMenuProps) {
  return (
    <AnchoredMenu anchor={anchor} onClose={onClose}>
      {actions.flatMap((action, index) => {
        const item = (
          <MenuItem
            key={action.label}
            disabled={action.disabled}
            onClick={() => {
              onClose();
              action.onClick();
            }}
            sx={action.danger ? { color: 'error.main', '& .MuiListItemIcon-root': { color: 'error.main' } } : undefined}
          >
            {action.icon && <ListItemIcon>{action.icon}</ListItemIcon>}
            <ListItemText>{action.label}</ListItemText>
          </MenuItem>
        );
        return action.danger && index > 0 && !actions[index - 1]?.danger ? [<Divider key={`${action.label}-divider`} />, item] : [item];
      })}
    </AnchoredMenu>
  );
}
