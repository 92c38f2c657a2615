import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import type { ReactNode } from 'react';

/** The phone's navigation: a temporary drawer over the page, with its own way out. */
export function MobileNavigation({ open, width, onClose, children }: { open: boolean; width: number; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer
      id="mobile-navigation"
      variant="temporary"
      open={open}
      onClose={onClose}
      sx={{ display: { md: 'none' } }}
      slotProps={{ paper: { 'aria-label': 'Menu de navigation', sx: { width: Math.min(width, 340), maxWidth: '88vw' } } }}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
        {/* The drawer covers the top bar's button: it carries its own way out. */}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', px: 1, pt: 1 }}>
          <IconButton aria-label="Fermer le menu" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Box>
        <Box sx={{ flex: 1, minHeight: 0 }}>{children}</Box>
      </Box>
    </Drawer>
  );
}
