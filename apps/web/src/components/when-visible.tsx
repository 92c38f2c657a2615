import { useEffect, useRef, useState, type ReactNode } from 'react';

/** How far below (or above) the screen a part starts loading: a few swipes ahead of the user. */
const AHEAD = '300px 0px';

/**
 * Renders `children` once the place they take comes near the screen, `fallback` until then (a box
 * of their final height: nothing moves when they arrive). For what a page shows below its first
 * screen and costs to load and draw (the dashboard's charts): a phone does not download, parse and
 * render them before its first screen is usable, and the user scrolling towards them finds them
 * drawn. Once shown they stay. Without IntersectionObserver (an old browser, jsdom) they render at
 * once.
 */
export function WhenVisible({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const [shown, setShown] = useState(() => typeof IntersectionObserver === 'undefined');
  const anchor = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = anchor.current;
    if (shown || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setShown(true);
          observer.disconnect();
        }
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown]);

  if (shown) return <>{children}</>;
  return (
    // A box of its own (not `display: contents`, which the observer cannot see), filling its place.
    <div ref={anchor} style={{ minWidth: 0, height: '100%' }}>
      {fallback}
    </div>
  );
}
