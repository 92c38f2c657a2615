import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import './app/styles/base.css';
import { needsSession, routes } from './app/router';
import { reloadOnceForChunkError } from './lib/chunk-load-guard';
import { restoreSession } from './lib/restore-session';
import { withRoute } from './lib/safe-route';
import { onSessionExpired } from './lib/session-expiry';

// A page behind the login opened cold: the session is restored from the refresh cookie while the
// route's chunks download, not after them (the guard, RequireAuth, joins this same attempt).
if (needsSession(window.location.pathname)) void restoreSession();

// Vite's own preload helper reports a missing chunk here (e.g. a CSS file of an old build).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceForChunkError()) event.preventDefault();
});

const router = createBrowserRouter(routes);
onSessionExpired((route) => void router.navigate(withRoute('/refresh', route), { replace: true }));

const container = document.getElementById('root');
if (!container) throw new Error('#root introuvable');

// A transition: React renders the first page in slices and yields to the browser between them,
// instead of one long task that a phone's slow CPU turns into seconds of blocked input.
startTransition(() => {
  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
});
