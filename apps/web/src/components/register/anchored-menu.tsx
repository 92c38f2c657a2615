import type { ReactNode } from 'react';
import { Menu } from '../menu/lazy-menu';

/** A menu opened by a button, under it and aligned on its right edge; closed when `anchor` is null. */
export function AnchoredMenu({ anchor, onClose, children }: { anchor: HTMLElement | null; onClose: () => void; children: ReactNode }) {
  return (
    <Menu
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {children}
    </Menu>
  );
}
