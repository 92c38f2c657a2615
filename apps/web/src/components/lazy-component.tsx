import { lazy, useState, type ComponentType } from 'react';
import { lazyModule } from '../lib/lazy-module';

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
  const module = lazyModule(load);
  const Lazy = lazy(() => module.load().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
  function LazyComponent(props: P & object) {
    // Once arrived, rendered directly: no Suspense fallback for a frame on the next opening.
    const Component = module.loaded() ?? Lazy;
    // eslint-disable-next-line react-hooks/static-components -- not created here: the one module's component, the same each render
    return <Component {...props} />;
  }
  return Object.assign(LazyComponent, {
    // A failed download is forgotten (lazyModule): the next render or hover tries again.
    preload: () => void module.load().catch(() => undefined),
    load: module.load,
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
