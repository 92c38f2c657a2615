/**
 * With a mouse (a desktop), what a first click may need is fetched once the page is idle. On a
 * touch screen (a phone on 4G) it waits for the first touch: data and a slow CPU are spent on the
 * page first (issue 10).
 */
export const preloadWhenIdle = () => typeof window.matchMedia === 'function' && window.matchMedia('(hover: hover) and (pointer: fine)').matches;

/** After the first paint, when the browser has a moment (at the latest after `timeout` ms). */
export function whenIdle(callback: () => void, timeout = 1500): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(callback, { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(callback, 200);
  return () => window.clearTimeout(handle);
}
