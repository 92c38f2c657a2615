import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { tracing as sdkTracing } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDrivers, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { activeTracing, type Tracing, TracingConfigError, tracingRequested } from './requested.js';
import { RedactingSpanProcessor, startTracing, withoutQuery, withoutValues } from './tracing.js';

/**
 * Traces (decision 047), exported to the SDK's in-memory exporter: a request's span carries its
 * route template and its « Référence », its statements are its children named by their shape, and
 * nothing a user typed (a search, an id in a query string, a query's values) is in any span.
 */

describe('the variables that turn traces on', () => {
  it('are off without an endpoint, or with OTEL_SDK_DISABLED', () => {
    expect(tracingRequested({})).toBeNull();
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collecteur:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull();
  });

  it('are on with either endpoint, named flotteassur unless OTEL_SERVICE_NAME says otherwise', () => {
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collecteur:4318' })).toEqual({ serviceName: 'flotteassur', protocol: 'http/protobuf' });
    expect(
      tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collecteur:4318/v1/traces', OTEL_SERVICE_NAME: 'flotte-prod', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
    ).toEqual({ serviceName: 'flotte-prod', protocol: 'http/json' });
  });

  it('refuse gRPC with a French message that names what works', () => {
    expect(() => tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collecteur:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(TracingConfigError);
    expect(() => tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collecteur:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /n'est pas pris en charge : utilisez http\/protobuf \(par défaut\) ou http\/json/,
    );
  });
});

describe('redaction', () => {
  it('cuts query strings and fragments, and the values Drizzle quotes', () => {
    expect(withoutQuery('/api/driver?search=Dupont&page=2')).toBe('/api/driver');
    expect(withoutQuery('https://s3.local/bucket/cle?X-Amz-Signature=abc#x')).toBe('https://s3.local/bucket/cle');
    expect(withoutQuery('/api/driver/123')).toBe('/api/driver/123');
    expect(withoutValues('Failed query: select 1 where email = $1\nparams: marie@exemple.fr')).toBe('Failed query: select 1 where email = $1\nparams: [masqués]');
  });

  it('applies to the spans as they start and to a failure described later', () => {
    const exporter = new sdkTracing.InMemorySpanExporter();
    const provider = new sdkTracing.BasicTracerProvider({ spanProcessors: [new RedactingSpanProcessor(new sdkTracing.SimpleSpanProcessor(exporter))] });
    const span = provider.getTracer('essai').startSpan('GET', {
      attributes: { 'http.target': '/api/driver?search=Dupont', 'url.full': 'http://h/api/driver?search=Dupont', 'url.query': 'search=Dupont', 'url.path': '/api/driver' },
    });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'Failed query: select $1\nparams: Dupont' });
    span.end();
    const [finished] = exporter.getFinishedSpans();
    expect(finished!.attributes).toEqual({ 'http.target': '/api/driver', 'url.full': 'http://h/api/driver', 'url.query': '[masqué]', 'url.path': '/api/driver' });
    expect(finished!.status.message).toBe('Failed query: select $1\nparams: [masqués]');
  });
});

describe('traces of requests and statements', () => {
  const exporter = new sdkTracing.InMemorySpanExporter();
  let started: Tracing;
  let t: TestContext;
  let token: string;
  let driverUuid: string;

  beforeAll(async () => {
    // Before the app: the Fastify instrumentation joins every Fastify instance created afterwards.
    started = await startTracing({ request: { serviceName: 'flotte-essai', protocol: 'http/protobuf' }, exporter });
    t = await createTestApp();
    driverUuid = await t.seed(async (tx) => {
      const organization = await createOrganization(tx, { title: 'Transports Trace' });
      const user = await createUser(tx, { email: 'gestion@trace.fr' });
      await linkUser(tx, organization.uuid, user.uuid, 'ADMIN');
      const [driver] = await createDrivers(tx, organization.uuid, [{ firstName: 'Josiane', lastName: 'Tracelot' }]);
      return driver!.uuid;
    });
    token = await t.login('gestion@trace.fr');
  });

  afterAll(async () => {
    await t?.close();
    await started?.shutdown();
  });

  beforeEach(() => exporter.reset());

  it('is the process tracing while started', () => {
    expect(activeTracing()).toBe(started);
  });

  it("draws a request's span with its route template and reference, and its statements as its children", async () => {
    const response = await t.as(token, { method: 'GET', url: `/api/driver/${driverUuid}` });
    expect(response.statusCode).toBe(200);
    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'request' && span.attributes['http.route'] === '/api/driver/:uuid');
    expect(request, spans.map((span) => span.name).join(', ')).toBeDefined();
    expect(request!.kind).toBe(SpanKind.SERVER);
    expect(request!.attributes['http.request.method']).toBe('GET');
    expect(request!.attributes['http.response.status_code']).toBe(200);
    expect(request!.attributes['flotte.request_id']).toBe(response.headers['x-request-id']);

    const traceId = request!.spanContext().traceId;
    const statements = spans.filter((span) => span.attributes['db.system.name'] === 'postgresql' && span.spanContext().traceId === traceId);
    expect(statements.length).toBeGreaterThan(0);
    const inRequest = new Set(spans.filter((span) => span.spanContext().traceId === traceId).map((span) => span.spanContext().spanId));
    for (const statement of statements) {
      expect(statement.kind).toBe(SpanKind.CLIENT);
      expect(inRequest.has(statement.parentSpanContext!.spanId)).toBe(true);
      expect(statement.name).toBe(statement.attributes['db.query.summary']);
      expect(typeof statement.attributes['flotte.statement.family']).toBe('string');
      // Inside the request's time.
      expect(toMs(statement.startTime)).toBeGreaterThanOrEqual(toMs(request!.startTime) - 1);
      expect(toMs(statement.endTime)).toBeLessThanOrEqual(toMs(request!.endTime) + 1);
    }
    // The driver's read runs in its organization's scope, named by its shape.
    const scoped = statements.filter((span) => span.attributes['flotte.scope'] === 'tenant');
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.every((span) => typeof span.attributes['flotte.organization'] === 'string')).toBe(true);
    // The driver's uuid travels as a parameter: in no statement's text.
    expect(statements.some((span) => String(span.attributes['db.query.text']).includes(driverUuid))).toBe(false);
  });

  it('keeps a search term, a password and an e-mail out of every span', async () => {
    const search = await t.as(token, { method: 'GET', url: '/api/driver?search=Tracelot' });
    expect(search.statusCode).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'gestion@trace.fr', password: 'mauvais-mot-de-passe-123' } });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
    const spans = exporter.getFinishedSpans();
    expect(spans.some((span) => span.attributes['http.route'] === '/api/driver')).toBe(true);
    const everything = JSON.stringify(spans.map((span) => ({ name: span.name, attributes: span.attributes, status: span.status, events: span.events })));
    for (const secret of ['Tracelot', 'mauvais-mot-de-passe-123', 'gestion@trace.fr', token]) expect(everything).not.toContain(secret);
  });

  it('marks a failed statement with its SQLSTATE only', async () => {
    await expect(t.database.db.execute('select * from table_qui_nexiste_pas')).rejects.toThrow();
    const failed = exporter.getFinishedSpans().find((span) => String(span.attributes['db.query.text']).includes('table_qui_nexiste_pas'));
    expect(failed).toBeDefined();
    expect(failed!.status).toEqual({ code: SpanStatusCode.ERROR, message: '42P01' });
    expect(failed!.attributes['db.response.status_code']).toBe('42P01');
  });
});

function toMs([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}
