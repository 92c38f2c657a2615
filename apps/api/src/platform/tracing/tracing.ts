import type { IncomingMessage } from 'node:http';
import FastifyOtel from '@fastify/otel';
import { context, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import type { StatementTiming } from '../../db/statement-timing.js';
import { setStatementCall } from '../../db/statement-timing.js';
import { PROBE_PATHS } from '../../plugins/request-log.js';
import { activeTracing, setActiveTracing, type Tracing, type TracingRequest } from './requested.js';

/**
 * Traces (decision 047): OpenTelemetry's Node SDK with the HTTP, Fastify and pg instrumentations,
 * started by server.ts before anything that loads http or pg, and only when the operator sets
 * OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only form). The standard OTEL_* variables apply
 * (service name, sampler, headers, protocol).
 *
 * - The HTTP span of a request is named by its route template (`GET /api/driver/:uuid`, given by
 *   the Fastify instrumentation); the Fastify span carries it as `http.route` and the request's
 *   « Référence » as `flotte.request_id`, so support goes from a user's reference to its trace.
 * - Statements are traced where they are timed (db/statement-timing.ts), on PostgreSQL and PGlite
 *   alike: one span per statement named by its shape (`drivers_list_3`), never with its values.
 *   The pg instrumentation keeps the connections' spans (waiting for the pool, connecting); its
 *   own span of each query is suppressed, which would only repeat ours without the name.
 * - Nothing a user typed leaves in a span: query strings are cut from every URL attribute, a
 *   failure's description loses the values Drizzle quotes, exceptions are not recorded.
 */

/** URL attributes of the HTTP and Fastify instrumentations, old and stable conventions. */
const URL_ATTRIBUTES = ['http.target', 'http.url', 'url.full', 'url.path'] as const;

/** A URL without its query string (search terms, signed storage links). */
export function withoutQuery(url: string): string {
  const at = url.search(/[?#]/);
  return at === -1 ? url : url.slice(0, at);
}

/** A failure's description without the values Drizzle quotes after `params:` (as plugins/request-log.ts does for logs). */
export function withoutValues(message: string): string {
  return message.replace(/params: .*$/gms, 'params: [masqués]');
}

/**
 * Removes what a user typed from every span as it starts: query strings of URL attributes (the
 * instrumentations set them when they start the span), `url.query` altogether, and the values in a
 * failure's description whenever one is set later.
 */
export class RedactingSpanProcessor implements tracing.SpanProcessor {
  constructor(private readonly next: tracing.SpanProcessor) {}

  onStart(span: tracing.Span, parentContext: Context): void {
    for (const name of URL_ATTRIBUTES) {
      const value = span.attributes[name];
      if (typeof value === 'string') span.setAttribute(name, withoutQuery(value));
    }
    if (span.attributes['url.query'] !== undefined) span.setAttribute('url.query', '[masqué]');
    const setStatus = span.setStatus.bind(span);
    span.setStatus = (status) => setStatus(status.message === undefined ? status : { ...status, message: withoutValues(status.message) });
    this.next.onStart(span, parentContext);
  }

  onEnd(span: tracing.ReadableSpan): void {
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

/** The span of one statement, drawn after it ended (its timing knows its start), in the context that sent it. */
/** A statement's span, child of the span that was active when it was sent (`sent`). */
function statementSpan(timing: StatementTiming, sent: Context) {
  const tracer = trace.getTracer('flotteassur.db');
  const end = performance.timeOrigin + performance.now();
  const span = tracer.startSpan(
    timing.name,
    {
      kind: SpanKind.CLIENT,
      startTime: end - timing.ms,
      attributes: {
        'db.system.name': 'postgresql',
        'db.system': 'postgresql',
        'db.query.text': timing.sql,
        'db.query.summary': timing.name,
        'flotte.statement.family': timing.family,
        ...(timing.scope ? { 'flotte.scope': timing.scope } : {}),
        ...(timing.organization ? { 'flotte.organization': timing.organization } : {}),
        ...(timing.code ? { 'db.response.status_code': timing.code } : {}),
      },
    },
    sent,
  );
  // The SQLSTATE only: a driver's message may quote a conflicting row's values.
  if (timing.failed) span.setStatus({ code: SpanStatusCode.ERROR, message: timing.code ?? 'échec' });
  span.end(end);
}

/** Where the instrumentations should not draw a span: the probes, the metrics, the web app's files. */
function ignoredIncoming(request: IncomingMessage): boolean {
  const path = withoutQuery(request.url ?? '');
  return PROBE_PATHS.has(path) || path === '/metrics' || !path.startsWith('/api/');
}

export type TracingOptions = {
  request: TracingRequest;
  /** Where spans go instead of OTLP (tests: the SDK's InMemorySpanExporter, exported at once). */
  exporter?: tracing.SpanExporter;
};

/** Starts the SDK; call before http, pg or fastify are loaded (server.ts does). */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  if (activeTracing()) throw new Error('startTracing: tracing is already started');
  const exporter = options.exporter ?? (await otlpExporter(options.request));
  const processor = options.exporter ? new tracing.SimpleSpanProcessor(exporter) : new tracing.BatchSpanProcessor(exporter);
  const sdk = new NodeSDK({
    serviceName: options.request.serviceName,
    spanProcessors: [new RedactingSpanProcessor(processor)],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: ignoredIncoming,
        // The headers, bodies and query strings stay out; what remains is redacted above.
      }),
      new FastifyOtel.FastifyOtelInstrumentation({
        registerOnInitialization: true,
        recordExceptions: false,
        requestHook: (span, request) => {
          span.setAttribute('flotte.request_id', request.id);
        },
      }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // The pg instrumentation's span of each query would repeat the statement's own span (above).
  setStatementCall((send) => context.with(suppressTracing(context.active()), send));
  const started: Tracing = {
    traceStatements: (statements) => statements.subscribeFromSender(() => context.active(), statementSpan),
    shutdown: async () => {
      setStatementCall(null);
      setActiveTracing(null);
      await sdk.shutdown();
      trace.disable();
      context.disable();
    },
  };
  setActiveTracing(started);
  return started;
}

async function otlpExporter(request: TracingRequest): Promise<tracing.SpanExporter> {
  // Each reads the endpoint, headers and timeout from the standard variables.
  if (request.protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}

