import { startTransition, useLayoutEffect, useState } from 'react';
import { type createBrowserRouter, RouterProvider } from 'react-router';

type DataRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The router's provider, safe to render in a transition beside other subscribers.
 *
 * RouterProvider reads `router.state` when it first renders and subscribes to its changes in a
 * layout effect. React Router keeps a change made in between for its first subscriber, but only
 * when nobody listens yet; main.tsx listens before (the page's frame). A first render in a
 * transition yields to the browser, and if the first route's lazy modules arrive in that gap the
 * router's "initialized" state goes to main.tsx's listener alone: the page stayed on its loader for
 * good (seen in e2e runs on a loaded machine, where the render is slow and the modules are
 * preloaded). Here the provider is mounted again, with the router's current state, whenever the
 * state changed before it was listening.
 */
export function RouterRoot({ router }: { router: DataRouter }) {
  const [mount, setMount] = useState(() => ({ generation: 0, state: router.state }));
  useLayoutEffect(() => {
    // Children's layout effects run first: the provider is subscribed by now, so any later change
    // reaches it; an earlier one is visible here as a different state object. Setting state here is
    // the point: an external store changed before React listened, and it happens once at most.
    // In a transition: a remount of the whole page set from a layout effect would otherwise be a
    // synchronous render, one long task of a phone's CPU (issue 10: seen in 1 cold load in 6).
    if (router.state !== mount.state) startTransition(() => setMount({ generation: mount.generation + 1, state: router.state }));
  }, [router, mount]);
  return <RouterProvider key={mount.generation} router={router} />;
}
