import { useEffect, useState } from 'react';
import { withChunkReload } from './chunk-load-guard';
import { preloadWhenIdle, whenIdle } from './idle-preload';

/** A module fetched when first asked for, once: `load` shares one fetch, `loaded` is it once there. */
export type LazyModule<M> = { load: () => Promise<M>; loaded: () => M | null };

/**
 * A module kept out of a page's first load (issue 10). A chunk gone after a deployment reloads the
 * page (withChunkReload); a failed fetch is forgotten, so the next ask fetches again. Tests await
 * `load()` so that the real component is there.
 */
export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  const fetchOnce = withChunkReload(importer);
  let loaded: M | null = null;
  let loading: Promise<M> | null = null;
  return {
    load: () =>
      (loading ??= fetchOnce().then(
        (module) => (loaded = module),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      )),
    loaded: () => loaded,
  };
}

/**
 * The module for a component that stands in for it meanwhile: null until it has arrived. `load`
 * asks for it (a hover, a focus, a touch); with a mouse it is also fetched once the page is idle
 * (preloadWhenIdle). Each component gets the module, whichever of them asked first. A failed fetch
 * (not a stale chunk, which reloads the page) is thrown to the route's error element.
 */
export function useLazyModule<M>(lazy: LazyModule<M>): { module: M | null; load: () => void } {
  const [module, setModule] = useState<M | null>(() => lazy.loaded());
  const [failure, setFailure] = useState<unknown>(null);
  const load = () => void lazy.load().then(setModule, setFailure);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at mount: `load` only reads `lazy`
  useEffect(() => (lazy.loaded() || !preloadWhenIdle() ? undefined : whenIdle(load)), [lazy]);
  if (failure) throw failure;
  return { module, load };
}
