import { createHash } from 'node:crypto';

/** The part of Vite's build manifest (apps/web/dist/.vite/manifest.json) read here. */
export type ViteManifest = Record<string, { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }>;

/**
 * The logged-in pages' frames by path, as the web build writes them (`.vite/page-frames.json`,
 * apps/web/src/lib/page-frame.ts): plain HTML painting the page's bar and title at once.
 */
export type PageFrames = Readonly<Record<string, string>>;

/** A page of the web app as served: its HTML and that HTML's ETag. */
export type WebPage = Readonly<{ html: string; etag: string }>;

// The web app's public routes follow one convention (apps/web/src/app/router.tsx): the page at
// `/name` is `src/app/routes/auth/name.tsx` under the public layout; `/` is the login page. Knowing it, the server names in the HTML of each page the
// chunks its route will load, so the browser downloads them beside the entry instead of after it
// (one round trip less before the first paint on a phone, issue 10).
const PUBLIC_LAYOUT = 'src/app/layouts/public-layout.tsx';
const LOGIN = 'src/app/routes/auth/login.tsx';

/** The route modules of the public page at `pathname`, by the convention above; null for any other path. */
export function publicRouteModules(pathname: string, manifest: ViteManifest): string[] | null {
  if (pathname === '/') return manifest[LOGIN] ? [PUBLIC_LAYOUT, LOGIN] : null;
  const name = /^\/([a-z][a-z0-9-]*)\/?$/.exec(pathname)?.[1];
  if (!name) return null;
  const publicPage = `src/app/routes/auth/${name}.tsx`;
  return manifest[publicPage] ? [PUBLIC_LAYOUT, publicPage] : null;
}

const etagOf = (html: string) => `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

const ROOT_ELEMENT = /<div id="root"><\/div>/;

/**
 * The frames' pages: index.html with the frame of the page at `pathname` (trailing slash or not)
 * before the app's root element; null for a path without a frame.
 */
function framedPages(indexHtml: string, frames: PageFrames | null): (pathname: string) => WebPage | null {
  if (!frames || !ROOT_ELEMENT.test(indexHtml)) return () => null;
  const pages = new Map<string, WebPage>();
  for (const [pathname, frame] of Object.entries(frames)) {
    if (!/^\/[a-z][a-z0-9-]*$/.test(pathname) || typeof frame !== 'string') continue;
    const html = indexHtml.replace(ROOT_ELEMENT, (root) => `${frame}${root}`);
    pages.set(pathname, Object.freeze({ html, etag: etagOf(html) }));
  }
  return (pathname) => pages.get(pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname) ?? null;
}

/**
 * The HTML of every page of the web app, computed once from the built index.html and the manifest:
 * for a public page, `<link rel="modulepreload">` for each script its modules import statically
 * and `<link rel="stylesheet">` for their styles, beyond what index.html already loads; for a
 * logged-in page with a frame, its frame in the body. Answers index.html as built for any other
 * path (the client router shows its 404 page).
 */
export function webPages(indexHtml: string, manifest: ViteManifest | null, frames: PageFrames | null = null): (pathname: string) => WebPage {
  const plain: WebPage = Object.freeze({ html: indexHtml, etag: etagOf(indexHtml) });
  const framed = framedPages(indexHtml, frames);
  if (!manifest || !indexHtml.includes('</head>')) return (pathname) => framed(pathname) ?? plain;

  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  const closure = (keys: string[]) => {
    const seen = new Set<string>();
    const stack = [...keys];
    while (stack.length > 0) {
      const key = stack.pop()!;
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      stack.push(...(manifest[key].imports ?? []));
    }
    return seen;
  };
  const loaded = closure(entry ? [entry] : []);
  const pages = new Map<string, WebPage>();

  return (pathname) => {
    const modules = publicRouteModules(pathname, manifest);
    if (!modules) return framed(pathname) ?? plain;
    const key = modules.join('|');
    let page = pages.get(key);
    if (!page) {
      const chunks = [...closure(modules)].filter((chunk) => !loaded.has(chunk));
      const scripts = chunks.map((chunk) => manifest[chunk]!.file).filter((file) => /\.m?js$/.test(file));
      const styles = [...new Set(chunks.flatMap((chunk) => manifest[chunk]!.css ?? []))];
      const links = [
        ...styles.map((file) => `<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">`),
        ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`),
      ];
      const html =
        links.length === 0 ? indexHtml : indexHtml.replace(/([ \t]*)<\/head>/, (_, indent: string) => `${indent}  ${links.join(`\n${indent}  `)}\n${indent}</head>`);
      page = Object.freeze({ html, etag: etagOf(html) });
      pages.set(key, page);
    }
    return page;
  };
}
