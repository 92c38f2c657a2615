import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isWebAsset } from './security-headers.js';
import { type PageFrames, webPages, type ViteManifest } from './web-pages.js';

/**
 * Serves the built web app (pre-compressed by its build) from the same port as the API.
 * Any GET outside /api and /assets that is not a file gets index.html: the client router decides, and
 * shows its own 404 page for unknown routes. The login page (and the other public pages) get index.html
 * naming the chunks their route loads (web-pages.ts), so they download beside the entry; the
 * logged-in pages get their frame, painted before the scripts run.
 */
export async function registerWeb(app: FastifyInstance, webDist: string) {
  const root = path.resolve(webDist);
  if (!existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ root }, 'web build not found: only the API is served');
    return false;
  }
  const manifestFile = path.join(root, '.vite', 'manifest.json');
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as ViteManifest) : null;
  const framesFile = path.join(root, '.vite', 'page-frames.json');
  const frames = existsSync(framesFile) ? (JSON.parse(readFileSync(framesFile, 'utf8')) as PageFrames) : null;
  const pageFor = webPages(readFileSync(path.join(root, 'index.html'), 'utf8'), manifest, frames);
  await app.register(fastifyStatic, {
    root,
    preCompressed: true,
    wildcard: false,
    index: false,
    // Hashed names change with their content: the ETag revalidates index.html, a date adds nothing.
    lastModified: false,
    setHeaders(res, filePath) {
      // Hashed assets never change; index.html must always be revalidated.
      res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    // A build file that does not exist (an old build's chunk) is a 404, never the app's page: the
    // web app's chunk guard reloads on it, and the page must not go out with an asset's headers.
    if (request.url === '/api' || request.url.startsWith('/api/') || isWebAsset(request.url)) return reply.callNotFound();
    const page = pageFor(request.url.split('?')[0]!);
    reply.header('cache-control', 'no-cache').header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(page.html);
  });
  return true;
}
