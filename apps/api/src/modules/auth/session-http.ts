import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../errors.js';

export const REFRESH_COOKIE = 'flotte_refresh';
export const COOKIE_PATH = '/api/auth';

/** The session's HTTP side, shared by the auth routes and the signup's: the refresh cookie and the same-origin checks. */
export function sessionHttp(publicUrl: string | undefined) {
  const isHttps = (request: FastifyRequest) => request.protocol === 'https' || Boolean(publicUrl?.startsWith('https:'));

  /** The session's cookie, or another of the auth routes' (the remembered browser's, decision 035). */
  function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date, name = REFRESH_COOKIE) {
    reply.setCookie(name, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: isHttps(request),
      path: COOKIE_PATH,
      expires,
    });
  }

  /**
   * A cross-site page may not log in nor use the session cookie: the Origin, when sent, must be
   * ours, and so must the browser's own `Sec-Fetch-Site` (which a page cannot write) when sent: a
   * sibling subdomain is `same-site`, and a SameSite=Strict cookie still goes along from it.
   */
  function assertSameOrigin(request: FastifyRequest) {
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') throw new ForbiddenError('Requête refusée : origine non autorisée');
    const origin = request.headers.origin;
    if (!origin) return;
    const allowed = new Set([`${request.protocol}://${request.host}`]);
    if (publicUrl) allowed.add(new URL(publicUrl).origin);
    if (!allowed.has(origin)) throw new ForbiddenError('Requête refusée : origine non autorisée');
  }

  /** Cookie-authenticated calls also need the custom header, which a cross-site form cannot set. */
  function assertSameSite(request: FastifyRequest) {
    assertSameOrigin(request);
    if (request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) {
      throw new ForbiddenError('Requête refusée : en-tête de sécurité manquant');
    }
  }

  return { setRefreshCookie, assertSameOrigin, assertSameSite };
}
