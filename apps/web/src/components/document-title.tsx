import { useLayoutEffect } from 'react';
import { removePageFrame } from '../lib/page-frame';

/**
 * React 19 hoists <title> into <head>: one per page, e.g. 'Tableau de bord — FlotteAssur'. Every
 * page renders one with its h1, so it also removes the page's frame (lib/page-frame.ts) in the
 * commit that puts the page on screen, before the browser paints it.
 */
export function DocumentTitle({ title }: { title: string }) {
  useLayoutEffect(removePageFrame, []);
  return <title>{`${title} — FlotteAssur`}</title>;
}
