import { useEffect, type RefObject } from 'react';
import { useLocation } from 'react-router';

/**
 * `/parameters#membres`: a page whose sections load after it (lazily), so the browser finds no anchor to
 * scroll to. The section is brought into view once it is there, and again while the sections
 * above it replace their skeletons (for a moment, unless the user scrolls first).
 */
export function useScrollToSection(container: RefObject<HTMLElement | null>) {
  const { hash } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    const root = container.current;
    if (!id || !root) return;
    let settledAt: number | null = null;
    const place = () => {
      const target = document.getElementById(id);
      if (!target) return;
      settledAt ??= Date.now();
      if (Date.now() - settledAt > 1500) return stop();
      target.scrollIntoView({ block: 'start' });
    };
    const observer = new MutationObserver(place);
    const stop = () => {
      observer.disconnect();
      window.removeEventListener('wheel', stop);
      window.removeEventListener('touchmove', stop);
      window.removeEventListener('keydown', stop);
    };
    observer.observe(root, { childList: true, subtree: true });
    window.addEventListener('wheel', stop, { passive: true });
    window.addEventListener('touchmove', stop, { passive: true });
    window.addEventListener('keydown', stop);
    const timeout = window.setTimeout(stop, 10_000);
    place();
    return () => {
      window.clearTimeout(timeout);
      stop();
    };
  }, [hash, container]);
}
