import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { databaseTroubleOf } from '../db/availability.js';
import {
  AppError,
  DATABASE_UNAVAILABLE_MESSAGE,
  HTTP_ERROR_NAMES,
  InsufficientStorageError,
  isNoSpace,
  NO_SPACE_MESSAGE,
  OVERLOADED_MESSAGE,
  ServiceUnavailableError,
  STORAGE_REFUSED_MESSAGE,
  STORAGE_UNAVAILABLE_MESSAGE,
  StorageFailureError,
} from '../errors.js';
import { logAnswerWithoutHooks, newRequestId, REQUEST_ID_HEADER, securityEvent, securityEventWritten } from './request-log.js';

type Detail = { path: string; message: string };

export function envelope(statusCode: number, message: string, details?: Detail[]) {
  return {
    statusCode,
    error: HTTP_ERROR_NAMES[statusCode] ?? 'Error',
    message,
    ...(details && details.length > 0 ? { details } : {}),
  };
}

/**
 * The envelope of an answer to a request: a 5xx also carries the request's id, the « Référence »
 * the web app shows and a user quotes to support, which finds the request's log lines by it
 * (plugins/request-log.ts, decision 046). A refusal (4xx) says itself what to change: no reference.
 */
function answer(request: FastifyRequest, reply: FastifyReply, statusCode: number, message: string, details?: Detail[]) {
  // A refusal is a security event, unless the request wrote its own (a failed login, a refresh token reused).
  if ((statusCode === 401 || statusCode === 403) && !securityEventWritten()) {
    const ctx = request.ctx as FastifyRequest['ctx'] | null;
    securityEvent(
      'access.refused',
      { userUuid: ctx?.userUuid ?? null, organizationUuid: ctx?.organizationUuid ?? null, statusCode, route: request.routeOptions.url ?? null },
      request.log,
    );
  }
  const body = envelope(statusCode, message, details);
  return reply.status(statusCode).send(statusCode >= 500 ? { ...body, requestId: request.id } : body);
}

// Fastify's own 4xx (bad JSON, wrong content type, body too large) come with English texts.
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Le corps de la requête est vide.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Type de contenu non pris en charge.",
  FST_ERR_CTP_BODY_TOO_LARGE: 'La requête est trop volumineuse.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Longueur de contenu invalide.',
  FST_ERR_CTP_INVALID_TYPE: 'Type de contenu invalide.',
  FST_ERR_BAD_URL: 'Adresse de la requête invalide.',
  FST_ERR_MAX_PARAM_LENGTH: 'Adresse de la requête trop longue.',
};

/** The French text of an error met before routing, by status (what Node's parser refused). */
const CLIENT_ERROR_MESSAGES: Record<number, string> = {
  400: 'Requête HTTP invalide.',
  408: 'La requête a mis trop de temps à arriver.',
  431: "Les en-têtes ou l'adresse de la requête sont trop longs.",
};

/** The headers of an answer to a URL (plugins/security-headers.ts). */
type HeadersFor = (url: string) => Readonly<Record<string, string>>;

/**
 * Fastify's `frameworkErrors`: a malformed URL (bad percent-encoding) or a path parameter longer
 * than the router takes. These answers skip the request hooks, so the security headers are set here.
 */
export function frameworkErrorHandler(headersFor: HeadersFor): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
    void reply
      .headers(headersFor(request.url))
      .header(REQUEST_ID_HEADER, request.id)
      .status(status)
      .send(envelope(status, FRAMEWORK_MESSAGES[error.code] ?? 'Requête invalide.'));
    logAnswerWithoutHooks(request, reply);
  };
}

/**
 * Fastify's `clientErrorHandler`, for what Node's HTTP parser refuses before any request exists:
 * headers (or a URL) over the size limit, a malformed request line, a request too slow. The
 * answer is written on the socket, with the envelope and the security headers.
 */
export function clientErrorHandler(headersFor: HeadersFor) {
  // No request was parsed, so no URL: the API's headers (no-store), the strictest.
  const fixed = Object.entries(headersFor('/api/'))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return function onClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
    // A connection reset: nobody is left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify(envelope(status, CLIENT_ERROR_MESSAGES[status]!));
    // No request exists: an id of its own all the same, so that every answer has one.
    const requestId = newRequestId();
    this.log.debug({ reqId: requestId, err: error }, 'client error');
    // As Node itself: no answer written over one already under way on this connection.
    const underWay = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (socket.writable && !underWay) {
      socket.write(
        `HTTP/1.1 ${status} ${HTTP_ERROR_NAMES[status]}\r\n${fixed}${REQUEST_ID_HEADER}: ${requestId}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

const INTERNAL_ERROR_MESSAGE = 'Une erreur interne est survenue. Veuillez réessayer.';

/** Seconds a client is asked to wait after a 503: a saturated database clears faster than a lost one returns. */
const RETRY_AFTER_SECONDS = { overloaded: 2, unavailable: 5 } as const;

/** One error envelope for the whole API: { statusCode, error, message (French), details? }. */
export function registerErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details: Detail[] = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Valeur invalide',
      }));
      const first = details[0];
      const message = first
        ? `Données invalides${first.path ? ` (${first.path})` : ''} : ${first.message}`
        : 'Données invalides';
      return answer(request, reply, 400, message, details);
    }
    if (err instanceof InsufficientStorageError || isNoSpace(err)) {
      // A full disk, said by the storage or met anywhere else: the administrator must act.
      request.log.error({ err, route: request.routeOptions.url }, 'disk full: 507');
      return answer(request, reply, 507, NO_SPACE_MESSAGE);
    }
    if (err instanceof StorageFailureError) {
      // The store, not the file: the administrator must know (credentials, bucket, disk), at error.
      request.log.error({ err, route: request.routeOptions.url, transient: err.transient }, `storage write failed: ${err.transient ? 503 : 500}`);
      if (!err.transient) return answer(request, reply, 500, STORAGE_REFUSED_MESSAGE);
      reply.header('retry-after', String(RETRY_AFTER_SECONDS.unavailable));
      return answer(request, reply, 503, STORAGE_UNAVAILABLE_MESSAGE);
    }
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return answer(request, reply, err.statusCode, err.message, err.details);
    }
    const trouble = databaseTroubleOf(err);
    if (trouble) {
      // Not a defect of the code: the database is saturated or out of reach. Said at warn, with
      // whose request it was; the process stays up and serves again once the database answers.
      const where = { reason: trouble.reason, route: request.routeOptions.url, organization: request.ctx?.organizationUuid ?? null };
      request.log.warn(where, trouble.kind === 'overloaded' ? 'database overloaded: 503' : 'database unavailable: 503');
      const unavailable = new ServiceUnavailableError(
        RETRY_AFTER_SECONDS[trouble.kind],
        trouble.kind === 'overloaded' ? OVERLOADED_MESSAGE : DATABASE_UNAVAILABLE_MESSAGE,
      );
      reply.headers(unavailable.headers!);
      return answer(request, reply, 503, unavailable.message);
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
      return answer(request, reply, 500, INTERNAL_ERROR_MESSAGE);
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
        return answer(request, reply, 400, 'Le corps de la requête n’est pas un JSON valide.');
      }
      const message = (err.code && FRAMEWORK_MESSAGES[err.code]) ?? 'Requête invalide.';
      if (status === 429 && err.message) return answer(request, reply, 429, err.message);
      return answer(request, reply, status, message);
    }
    request.log.error({ err }, 'unhandled error');
    return answer(request, reply, 500, INTERNAL_ERROR_MESSAGE);
  });

  app.setNotFoundHandler((request, reply) => {
    void answer(request, reply, 404, `Route ${request.method} ${request.url.split('?')[0]} introuvable`);
  });
}
