import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';
import type { Config } from '../config.js';
import type { StatementEvents, StatementTiming } from '../db/statement-timing.js';

/**
 * Request logs and the support reference (decision 046).
 *
 * Every request gets an id (its « Référence »): answered in `X-Request-Id` on every answer, inside
 * the body of every 5xx (plugins/error-handler.ts), and written on every log line of the request.
 * Each request ends with one line at info: its id, route template, method, status, duration, and
 * the organization and user when authenticated — never its URL (the query holds search terms),
 * headers, body, or anything a user typed. A statement slower than SLOW_STATEMENT_MS is logged at
 * warn with its shape, duration and organization, on the request's line of ids when a request runs it.
 */

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id must look like to be reused: no spaces, quotes or newlines to forge log lines with. */
export const INCOMING_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

const ID_BYTES = 12;
/** Random bytes drawn 340 ids at a time: one call to the system's generator per request cost ≈ 2 % of the server's CPU. */
const idPool = Buffer.alloc(ID_BYTES * 340);
let idOffset = idPool.length;

/** 16 url-safe characters (96 random bits): short enough to read over the phone, unique enough to find. */
export function newRequestId(): string {
  if (idOffset === idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  const id = idPool.toString('base64url', idOffset, idOffset + ID_BYTES);
  idOffset += ID_BYTES;
  return id;
}

/**
 * Fastify's genReqId. Behind a trusted proxy (TRUST_PROXY on) the proxy's `X-Request-Id` is kept
 * when well-formed, so its access log and ours share the id; otherwise, and always when the
 * server is reached directly, the id is ours: a client cannot choose the reference of its request.
 */
export function requestIdGenerator(trustProxy: Config['trustProxy']): (raw: IncomingMessage) => string {
  const reuse = trustProxy !== false && trustProxy !== 0;
  return (raw) => {
    if (reuse) {
      const incoming = raw.headers[REQUEST_ID_HEADER];
      if (typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming)) return incoming;
    }
    return newRequestId();
  };
}

type SerializedError = ReturnType<typeof stdSerializers.err> & { params?: unknown; detail?: unknown; parameters?: unknown };

/**
 * An error as logged, without the values of a failed query: Drizzle's message and stack quote
 * them (`params: …`) and keep them in `params`, PostgreSQL's `detail` repeats a conflicting
 * row's key (`Key (email)=(…)`). The statement's SQL stays: it holds placeholders only.
 */
export function errorWithoutValues(error: Error): SerializedError {
  const serialized = stdSerializers.err(error) as SerializedError;
  const hide = (text: string) => text.replace(/^params: .*$/gm, 'params: [masqués]');
  const { params: _params, detail: _detail, parameters: _parameters, ...rest } = serialized;
  return {
    ...rest,
    ...(typeof rest.message === 'string' ? { message: hide(rest.message) } : {}),
    ...(typeof rest.stack === 'string' ? { stack: hide(rest.stack) } : {}),
  } as SerializedError;
}

/**
 * The logger's options. Fastify's own request lines are off (app.ts: disableRequestLogging) and
 * its `req` serializer, which writes the URL with its query, is replaced: a request logged by hand
 * says its method and route template only. The redaction is a second line of defence for a line
 * that would carry a request's headers or a credential by mistake.
 */
export function loggerOptions(config: Config, stream?: NodeJS.WritableStream): NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> {
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, route: request.routeOptions?.url ?? null }),
      err: errorWithoutValues,
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'password',
        '*.password',
        'token',
        '*.token',
        'accessToken',
        'refreshToken',
      ],
      censor: '[masqué]',
    },
  };
}

/** The load balancer's probes: a healthy one is logged at debug, and never traced (platform/tracing). */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/api/health', '/api/ready']);

/** The logger of the request running now (its lines carry its id) and its security events so far; none outside a request. */
const requestLogs = new AsyncLocalStorage<{ log: FastifyBaseLogger; securityEvents: number }>();

/**
 * What a security event records (issue 20): a sign-in that succeeded, failed or asked for its
 * second factor, a refused access (401/403), a refresh token shown again (a stolen one, or a
 * replay) or refused. Read by an operator or a SIEM by `event`.
 */
export type SecurityEventName = 'login.succeeded' | 'login.failed' | 'login.challenged' | 'access.refused' | 'refresh.reused' | 'refresh.refused';

/**
 * Writes a security event at info on the request's logger: `msg: "security event"`, `event`, the
 * user's and the organization's uuids (null when unknown), `reqId` and `time` (every line has
 * them), and a few words of why (`reason`, `statusCode`, `route`). Never an e-mail, a name, a
 * password or a token: the uuids are enough to find the rest. Outside a request, `log` says where.
 */
export function securityEvent(
  event: SecurityEventName,
  fields: { userUuid: string | null; organizationUuid: string | null; [detail: string]: string | number | null },
  log?: FastifyBaseLogger,
) {
  const store = requestLogs.getStore();
  if (store) store.securityEvents++;
  (log ?? store?.log)?.info({ event, ...fields }, 'security event');
}

/** Whether the request running now already wrote a security event (a failed login is not also an « access refused »). */
export function securityEventWritten(): boolean {
  return (requestLogs.getStore()?.securityEvents ?? 0) > 0;
}

/** What a request line says: the caller's ids are uuids, never a name or an e-mail. */
function requestLine(request: FastifyRequest, statusCode: number, ms: number) {
  const ctx = request.ctx as FastifyRequest['ctx'] | null;
  return {
    method: request.method,
    route: request.routeOptions.url ?? null,
    statusCode,
    ms: Math.round(ms * 10) / 10,
    ...(ctx ? { organization: ctx.organizationUuid, user: ctx.userUuid } : {}),
  };
}

/** Answers that skip the request hooks (plugins/error-handler.ts frameworkErrorHandler) log their line here. */
export function logAnswerWithoutHooks(request: FastifyRequest, reply: FastifyReply) {
  request.log.info(requestLine(request, reply.statusCode, reply.elapsedTime), 'request');
}

export function registerRequestLog(app: FastifyInstance, options: { slowStatementMs: number; statements: StatementEvents }) {
  app.addHook('onRequest', (request, reply, done) => {
    // Set first, so that every answer has it, a refusal or a 404 included.
    reply.header(REQUEST_ID_HEADER, request.id);
    // The rest of the request (hooks, handler, its statements) runs with its logger at hand.
    requestLogs.run({ log: request.log, securityEvents: 0 }, done);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const line = requestLine(request, reply.statusCode, reply.elapsedTime);
    // A load balancer's probe every few seconds would fill the log: a healthy one at debug, a
    // failing one (a 503 from /api/ready) at info like any other request.
    if (PROBE_PATHS.has(line.route ?? '') && reply.statusCode < 400) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
    done();
  });

  // The sender's request logger, read when the statement is sent: its end runs in the connection's context.
  const slow = (timing: StatementTiming, senderLog: FastifyBaseLogger | undefined) => {
    if (timing.ms < options.slowStatementMs) return;
    const log = senderLog ?? app.log;
    // Its shape, never its values: those travel as parameters and are not in the timing at all.
    log.warn(
      {
        statement: timing.name,
        sql: timing.sql,
        ms: Math.round(timing.ms),
        organization: timing.organization,
        scope: timing.scope,
        ...(timing.failed ? { failed: true } : {}),
      },
      'slow statement',
    );
  };
  const stop = options.statements.subscribeFromSender(() => requestLogs.getStore()?.log, slow);
  app.addHook('onClose', (_instance, done) => {
    stop();
    done();
  });
}
