import { lazy, useState, type ComponentType } from 'react';
import { withChunkReload } from '../lib/chunk-load-guard';

// What a page opens later, kept out of its first load (issue 10, decision 016).

/** A component loaded on first render (React.lazy) that can be fetched earlier, on a sign of intent. */
export type LazyComponent<P> = ComponentType<P> & {
  /** Starts the download (once); never rejects: a failure is told when the component renders. */
  preload: () => void;
  /** The download as a promise (once), for what must wait for it, e.g. opening in the same render. */
  load: () => Promise<ComponentType<P>>;
};

/**
 * A component kept out of the page's first load (a dialog, a form, a menu): its module is fetched the first time it
 * renders, or earlier through `preload()` (hover, focus or touch of the button that opens it). A
 * chunk gone after a new deployment reloads the page once (withChunkReload); any other failure
 * reaches the route's error element.
 *
 * ```tsx
 * const DriverForm = lazyComponent(() => import('…/driver-form').then((m) => m.DriverForm));
 * ```
 */
export function lazyComponent<P>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  const guarded = withChunkReload(load);
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  // Once arrived, rendered directly: no Suspense fallback for a frame on the next opening.
  let Resolved: ComponentType<P> | undefined;
  const once = () => {
    pending ??= guarded().then(
      (component) => {
        Resolved = component;
        return { default: component };
      },
      (error: unknown) => {
        // The next render or hover tries again (a network blip), rather than keeping the failure.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(once) as unknown as ComponentType<P>;
  function LazyComponent(props: P & object) {
    const Component = Resolved ?? Lazy;
    return <Component {...props} />;
  }
  return Object.assign(LazyComponent, {
    preload: () => void once().catch(() => undefined),
    load: () => once().then((module) => module.default),
  }) as LazyComponent<P>;
}

/** Starts the download of several lazy components, e.g. a register's form and details dialog. */
export function preloadAll(...components: readonly { preload: () => void }[]) {
  for (const component of components) component.preload();
}

/**
 * True from the first time `open` is true: a lazily loaded dialog, drawer or host is rendered from
 * its first opening and kept, so that it still closes with its transition.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened;
}
