import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import './app/styles/base.css';
import { needsSession, routes } from './app/router';
import { RouterRoot } from './app/router-root';
import { reloadOnceForChunkError } from './lib/chunk-load-guard';
import { startFirstRequests } from './lib/first-requests';
import { restoreSession, whenTokenReady } from './lib/restore-session';
import { withRoute } from './lib/safe-route';
import { PAGE_FRAME_ID, removePageFrame } from './lib/page-frame';
import { onSessionExpired } from './lib/session-expiry';
import { nextTask } from './lib/next-task';

// Vite's own preload helper reports a missing chunk here (e.g. a CSS file of an old build).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceForChunkError()) event.preventDefault();
});

const container = document.getElementById('root');
if (!container) throw new Error('#root introuvable');

/**
 * The app's start, in three tasks of the browser rather than one (issue 10): on a phone's CPU the
 * entry's evaluation, the first route match, the router's creation and its lazy imports made one
 * task of ≈ 250 ms, most of it blocking time. Each step still starts its downloads at once.
 */
async function start(root: HTMLElement) {
  // A page behind the login opened cold: the session is restored from the refresh cookie while the
  // route's chunks download, not after them (the guard, RequireAuth, joins this same attempt).
  // Its first data too (a register's first page), as soon as the token is there (lib/first-requests.ts).
  const cold = needsSession(window.location.pathname);
  if (cold) void restoreSession();
  await nextTask();
  if (cold) void startFirstRequests(routes, window.location, whenTokenReady());
  await nextTask();

  const router = createBrowserRouter(routes);

  // The page's frame, when the server sent one (lib/page-frame.ts), is removed by the page itself;
  // sent elsewhere (to the login page, say), or still starting after 20 s, the app shows itself.
  // (Listening before the first render is why the app mounts RouterRoot, not RouterProvider.)
  if (document.getElementById(PAGE_FRAME_ID)) {
    const framedPath = window.location.pathname;
    const unsubscribeFrame = router.subscribe((state) => {
      if (state.location.pathname !== framedPath) {
        removePageFrame();
        unsubscribeFrame();
      }
    });
    setTimeout(removePageFrame, 20_000);
  }
  onSessionExpired((route) => void router.navigate(withRoute('/refresh', route), { replace: true }));

  // A transition: React renders the first page in slices and yields to the browser between them,
  // instead of one long task that a phone's slow CPU turns into seconds of blocked input.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <RouterRoot router={router} />
      </StrictMode>,
    );
  });
}

void start(container);
