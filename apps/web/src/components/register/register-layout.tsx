import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** A register screen: header, toolbar, list, one below the other. */
export function RegisterScreen({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>{children}</Box>;
}

/** The search and the filters above a list; they wrap on a narrow screen. */
export function RegisterToolbar({ children, align = 'center' }: { children: ReactNode; align?: 'center' | 'flex-start' }) {
  return <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: align, minWidth: 0 }}>{children}</Box>;
}
