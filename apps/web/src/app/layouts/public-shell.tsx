import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';
import { BrandLogo } from '../../components/brand-logo';
import { MuiProviders } from '../providers';

/** Centered card of the public pages (recover, signup, refresh). */
export function PublicShell({ children, maxWidth = 460 }: { children: ReactNode; /** The card's width: wider for a long text (the CGU). */ maxWidth?: number }) {
  return (
    <MuiProviders>
      <Box
        component="main"
        sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', bgcolor: 'background.default', px: 2, py: 4 }}
      >
        <Box sx={{ width: '100%', maxWidth, display: 'grid', gap: 3, justifyItems: 'center' }}>
          <BrandLogo />
          <Paper variant="outlined" sx={{ width: '100%', p: { xs: 3, sm: 4 } }}>
            {children}
          </Paper>
        </Box>
      </Box>
    </MuiProviders>
  );
}
