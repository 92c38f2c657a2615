/**
 * A logged-in page's frame: its bar (phone) or sidebar (desktop) and its title, as plain HTML that
 * the server puts in the page's HTML (apps/api/src/plugins/web-pages.ts, from the build's
 * `.vite/page-frames.json`, written by vite.config.ts). A phone paints the page's title as soon as
 * the HTML and the entry's stylesheet arrive, instead of after the scripts, the session and the
 * first render (issue 10, decision 017). The frame covers the app (styles: app/styles/base.css)
 * until the page's own title is on screen: the page removes it in the same commit (DocumentTitle),
 * so there is no flash in between; a redirection, an error page or a very slow start remove it too
 * (main.tsx, RouteError).
 *
 * No React, no dependency: vite.config.ts imports this file.
 */
export const PAGE_FRAME_ID = 'page-frame';

/**
 * The pages that have a frame and their titles, as their h1 says (a unit test compares them with
 * the registers' texts). Only the pages behind the login: a public page is light enough.
 */
export const PAGE_FRAME_TITLES: Readonly<Record<string, string>> = Object.freeze({
  '/dashboard': 'Tableau de bord',
  '/vehicules': 'Véhicules',
  '/drivers': 'Conducteurs',
  '/sinisters': 'Sinistres',
  '/account': 'Paramètres compte',
  '/parameters': 'Paramètres',
});

/** The phone's top bar title (SPEC: always 'Tableau de bord'), as the logged layout shows it. */
const BAR_TITLE = 'Tableau de bord';
/** MUI's Menu icon. */
const MENU_ICON = '<svg viewBox="0 0 24 24" width="24" height="24" focusable="false"><path d="M3 18h18v-2H3zm0-5h18v-2H3zm0-7v2h18V6z"/></svg>';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The frame's HTML for a page titled `title`. Hidden from assistive technologies and from the
 * pointer: it is a picture of the page to come, never something to read or click.
 */
export function pageFrameHtml(title: string): string {
  return (
    `<div id="${PAGE_FRAME_ID}" class="fa-frame" aria-hidden="true">` +
    `<div class="fa-frame__bar"><span class="fa-frame__menu">${MENU_ICON}</span><span class="fa-frame__bar-title">${BAR_TITLE}</span></div>` +
    '<div class="fa-frame__side"></div>' +
    `<div class="fa-frame__main"><div class="fa-frame__content"><div class="fa-frame__header"><div class="fa-frame__title">${escapeHtml(title)}</div></div></div></div>` +
    '</div>'
  );
}

/** Every page's frame by path, as the build writes them for the server. */
export function pageFrames(): Record<string, string> {
  return Object.fromEntries(Object.entries(PAGE_FRAME_TITLES).map(([pathname, title]) => [pathname, pageFrameHtml(title)]));
}

/** Removes the frame, if the page was served with one; safe to call any number of times. */
export function removePageFrame(): void {
  if (typeof document === 'undefined') return;
  document.getElementById(PAGE_FRAME_ID)?.remove();
}
