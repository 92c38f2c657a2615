import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { routes } from './app/router';
import { reloadOnceForChunkError } from './lib/chunk-load-guard';
import { withRoute } from './lib/safe-route';
import { onSessionExpired } from './lib/session-expiry';

// Vite's own preload helper reports a missing chunk here (e.g. a CSS file of an old build).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceForChunkError()) event.preventDefault();
});

const router = createBrowserRouter(routes);
onSessionExpired((route) => void router.navigate(withRoute('/refresh', route), { replace: true }));

const container = document.getElementById('root');
if (!container) throw new Error('#root introuvable');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
