import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createTestDatabase } from '../../test/test-app.js';
import { publicRouteModules, webPages, type ViteManifest } from './web-pages.js';

const INDEX = '<!doctype html>\n<html lang="fr">\n  <head>\n    <script type="module" crossorigin src="/assets/index-e1.js"></script>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n';

/** A build's manifest as Vite writes it: the entry, two layouts, pages, shared chunks. */
const MANIFEST: ViteManifest = {
  'index.html': { file: 'assets/index-e1.js', isEntry: true, imports: ['_react-r1.js'], css: ['assets/index-c1.css'] },
  '_react-r1.js': { file: 'assets/react-r1.js' },
  '_mui-m1.js': { file: 'assets/mui-m1.js', imports: ['index.html'] },
  '_table-t1.js': { file: 'assets/table-t1.js', imports: ['_mui-m1.js'] },
  'src/app/layouts/logged-layout.tsx': { file: 'assets/logged-layout-l1.js', imports: ['index.html', '_mui-m1.js'] },
  'src/app/layouts/public-layout.tsx': { file: 'assets/public-layout-p1.js', imports: ['index.html'] },
  'src/app/routes/app/vehicules.tsx': { file: 'assets/vehicules-v1.js', imports: ['_table-t1.js', 'index.html'] },
  'src/app/routes/app/dashboard.tsx': { file: 'assets/dashboard-d1.js', imports: ['_mui-m1.js'] },
  'src/app/routes/auth/login.tsx': { file: 'assets/login-g1.js', imports: ['index.html', '_brand-b1.js'], css: ['assets/login-s1.css'] },
  '_brand-b1.js': { file: 'assets/brand-b1.js', css: ['assets/brand-s2.css'] },
  'src/app/routes/auth/recover.tsx': { file: 'assets/recover-x1.js', imports: ['_mui-m1.js'] },
};

const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
const styles = (html: string) => [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('web pages', () => {
  it('maps a public path to its layout and page by the routes’ convention, and nothing else', () => {
    expect(publicRouteModules('/', MANIFEST)).toEqual(['src/app/layouts/public-layout.tsx', 'src/app/routes/auth/login.tsx']);
    expect(publicRouteModules('/recover', MANIFEST)).toEqual(['src/app/layouts/public-layout.tsx', 'src/app/routes/auth/recover.tsx']);
    expect(publicRouteModules('/recover/', MANIFEST)).toEqual(['src/app/layouts/public-layout.tsx', 'src/app/routes/auth/recover.tsx']);
    // A logged page's route chunks would compete with the entry on a slow link: no preloads.
    for (const other of ['/vehicules', '/dashboard', '/nimporte-quoi', '/recover/12', '/../etc', '/Recover', '/%2e%2e', '/assets']) {
      expect(publicRouteModules(other, MANIFEST)).toBeNull();
    }
  });

  it('names the chunks a public page’s route loads, beyond the entry’s, and their styles', () => {
    const pageFor = webPages(INDEX, MANIFEST);
    const recover = pageFor('/recover').html;
    expect(preloads(recover).sort()).toEqual(['/assets/mui-m1.js', '/assets/public-layout-p1.js', '/assets/recover-x1.js']);
    expect(recover).not.toContain('react-r1.js');
    expect(recover.indexOf('modulepreload')).toBeLessThan(recover.indexOf('</head>'));

    const login = pageFor('/').html;
    expect(preloads(login).sort()).toEqual(['/assets/brand-b1.js', '/assets/login-g1.js', '/assets/public-layout-p1.js']);
    expect(styles(login).sort()).toEqual(['/assets/brand-s2.css', '/assets/login-s1.css']);

    expect(pageFor('/nimporte-quoi').html).toBe(INDEX);
    expect(pageFor('/vehicules').html).toBe(INDEX);
    expect(pageFor('/recover').etag).not.toBe(pageFor('/').etag);
    expect(pageFor('/')).toBe(pageFor('/'));
  });

  it('puts a logged-in page’s frame before the app’s root, and nowhere else', () => {
    const frames = { '/vehicules': '<div id="page-frame">Véhicules</div>', '/dashboard': '<div id="page-frame">Tableau de bord</div>', '/../x': '<p>no</p>' };
    for (const manifest of [MANIFEST, null]) {
      const pageFor = webPages(INDEX, manifest, frames);
      const vehicules = pageFor('/vehicules').html;
      expect(vehicules).toContain('<body><div id="page-frame">Véhicules</div><div id="root"></div></body>');
      expect(preloads(vehicules)).toEqual([]);
      expect(pageFor('/vehicules/')).toBe(pageFor('/vehicules'));
      expect(pageFor('/dashboard').html).toContain('Tableau de bord</div><div id="root">');
      expect(pageFor('/dashboard').etag).not.toBe(pageFor('/vehicules').etag);
      // Public pages, unknown paths and a frame under a path that is not a page's: as before.
      expect(pageFor('/').html).not.toContain('page-frame');
      for (const other of ['/nimporte-quoi', '/vehicules/12', '/Vehicules', '/../x']) expect(pageFor(other).html).toBe(INDEX);
    }
  });

  it('serves index.html as built without a manifest', () => {
    const pageFor = webPages(INDEX, null);
    expect(pageFor('/').html).toBe(INDEX);
  });

  it('answers the login page with its preloads, a logged page with its frame, the page’s security headers, an ETag and a 304 on a match', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'flotte-web-pages-'));
    mkdirSync(path.join(dist, 'assets'));
    mkdirSync(path.join(dist, '.vite'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    writeFileSync(path.join(dist, '.vite', 'page-frames.json'), JSON.stringify({ '/drivers': '<div id="page-frame">Conducteurs</div>' }));
    for (const chunk of Object.values(MANIFEST)) writeFileSync(path.join(dist, chunk.file), 'export {};');
    const database = await createTestDatabase();
    const app = await buildApp(loadConfig({ APP_SECRET: 'test-secret-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent', WEB_DIST: dist }), database, { logger: false });
    try {
      const page = await app.inject({ method: 'GET', url: '/?route=%2Fvehicules' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(preloads(page.body)).toContain('/assets/login-g1.js');
      const again = await app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': String(page.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const unknown = await app.inject({ method: 'GET', url: '/vehicules' });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(INDEX);
      const framed = await app.inject({ method: 'GET', url: '/drivers?page=2' });
      expect(framed.statusCode).toBe(200);
      expect(framed.body).toContain('<div id="page-frame">Conducteurs</div><div id="root"></div>');
      expect(framed.headers['content-security-policy']).toContain("script-src 'self'");
      // The manifest and the frames stay private (a dot folder of the build).
      expect((await app.inject({ method: 'GET', url: '/.vite/manifest.json' })).body).not.toContain('logged-layout');
      expect((await app.inject({ method: 'GET', url: '/.vite/page-frames.json' })).body).not.toContain('Conducteurs');
    } finally {
      await app.close();
      await database.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
