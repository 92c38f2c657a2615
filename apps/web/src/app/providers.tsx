import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientContext, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { queryClient as appQueryClient } from '../lib/query-client';
import { theme } from './theme';

// The entry (main.tsx) mounts the router alone: the login page, the page loader and the error
// pages need neither MUI nor TanStack Query, and a phone downloads them first (issue 10,
// decision 016). Every page built on MUI mounts `MuiProviders` in its layout or shell.

/**
 * The theme, MUI's baseline styles and the query client, for a layout or shell built on MUI.
 * The query client is the app's one (module singleton), unless one is already provided above
 * (a test's own client): the cache outlives the layout that mounts it.
 */
export function MuiProviders({ children, baseline = true }: { children: ReactNode; baseline?: boolean }) {
  const provided = useContext(QueryClientContext);
  const content = (
    <ThemeProvider theme={theme}>
      {baseline && <CssBaseline />}
      {children}
    </ThemeProvider>
  );
  return provided ? content : <QueryClientProvider client={appQueryClient}>{content}</QueryClientProvider>;
}

/** Tests: everything a page may need around the router, with the test's own query client. */
export function AppProviders({ children, queryClient = appQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MuiProviders>{children}</MuiProviders>
    </QueryClientProvider>
  );
}
