import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, type createBrowserRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RouterRoot } from './router-root';

/**
 * A router whose state changes while React renders its first page, after the provider has read
 * the state and before it subscribes, with another subscriber already listening (main.tsx's page
 * frame): React Router keeps an update for its first subscriber only when nobody listens. In the
 * browser it is the first route's lazy modules arriving while a first render in a transition
 * yields; here, deterministically, the page itself navigates during its first render (React
 * Router updates its state synchronously).
 */
function routerChangedDuringFirstRender() {
  let changed = false;
  const holder: { router?: ReturnType<typeof createMemoryRouter> } = {};
  function Loader() {
    if (!changed && holder.router) {
      changed = true;
      void holder.router.navigate('/');
    }
    return <p>Chargement…</p>;
  }
  const router = createMemoryRouter(
    [
      { path: '/loading', element: <Loader /> },
      { path: '/', element: <h1>Connexion</h1> },
    ],
    { initialEntries: ['/loading'] },
  );
  router.subscribe(() => {});
  holder.router = router;
  return router as unknown as ReturnType<typeof createBrowserRouter>;
}

describe('RouterRoot', () => {
  it('shows the router’s current page when its state changed before the provider listened', async () => {
    const router = routerChangedDuringFirstRender();
    act(() => void render(<RouterRoot router={router} />));
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeInTheDocument();
    expect(screen.queryByText('Chargement…')).toBeNull();
  });

  it('is what RouterProvider alone misses beside another subscriber (if a later React Router fixes it, RouterRoot can go)', async () => {
    const router = routerChangedDuringFirstRender();
    act(() => void render(<RouterProvider router={router} />));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Connexion' })).toBeNull();
    expect(screen.getByText('Chargement…')).toBeInTheDocument();
  });
});
