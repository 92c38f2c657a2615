import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (CSP, frame and referrer policies, nosniff…), computed once at start:
 * they depend on the configuration, never on the request. (@fastify/helmet builds Helmet's whole
 * middleware again on every request, which cost a list request about 7 % of its time.)
 */
export function securityHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.freeze(headers);
}

/** Whether a URL is the API's (its answers hold personal data and tokens). */
const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** The web app's hashed build files (scripts, styles), served by plugins/web.ts; never a document. */
export const isWebAsset = (url: string) => url.startsWith('/assets/');

/**
 * The headers that matter on a script or a style sheet: no MIME sniffing, no embedding by another
 * site, and HTTPS only (HSTS, when it is sent: any answer may be the one a browser learns it from).
 * The others (CSP, frame, referrer and opener policies…) govern documents only; on each of the
 * dozen files a page loads they cost ≈ 600 bytes a phone downloads for nothing (issue 10).
 */
const ASSET_HEADER_NAMES = ['x-content-type-options', 'cross-origin-resource-policy', 'strict-transport-security'];

/**
 * The headers of an answer to `url`: Helmet's on every answer (on the web app's build files, only
 * those that apply to a script or a style sheet), and `Cache-Control: no-store` on
 * every API answer (errors and 404s included), so that no browser, proxy or back/forward cache
 * keeps personal data or tokens. A route whose answer may be kept says so itself by setting its
 * own Cache-Control, which wins (the static web app's assets do, plugins/web.ts). A list's ETag
 * still works under no-store: the web app sends If-None-Match from the data it holds in memory.
 */
export function securityHeadersFor(options: HelmetOptions): (url: string) => Readonly<Record<string, string>> {
  const headers = securityHeaders(options);
  const apiHeaders = Object.freeze({ ...headers, 'cache-control': 'no-store' });
  const assetHeaders = Object.freeze(Object.fromEntries(ASSET_HEADER_NAMES.filter((name) => name in headers).map((name) => [name, headers[name]!])));
  return (url) => (isApi(url) ? apiHeaders : isWebAsset(url) ? assetHeaders : headers);
}

/**
 * Sets them first on every routed request. Errors raised before routing run no hook: the error
 * handler's `frameworkErrors` and `clientError` handlers set them through the same function.
 */
export function registerSecurityHeaders(app: FastifyInstance, headersFor: (url: string) => Readonly<Record<string, string>>) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headersFor(request.url));
    done();
  });
}
