import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { api, cleanUp, DEMO_ADMIN, login, scratch, seededDataDir, startServer, waitUntil, withNewDatabase } from './harness.js';

afterAll(cleanUp);

/**
 * Traces from the built server as an operator turns them on (decision 047): OTEL_EXPORTER_OTLP_ENDPOINT
 * pointing at a collector (here a small HTTP server reading OTLP/JSON). The instrumentations patch
 * http and pg as the process loads them, which only a real process shows.
 */

type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: { key: string; value: Record<string, unknown> }[] };
type Received = { service: string; spans: OtlpSpan[]; bodies: string[] };

async function collector(): Promise<{ server: Server; url: string; received: Received }> {
  const received: Received = { service: '', spans: [], bodies: [] };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      received.bodies.push(body);
      if (request.url === '/v1/traces') {
        const payload = JSON.parse(body) as {
          resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const resource of payload.resourceSpans) {
          received.service = String(resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '');
          for (const scope of resource.scopeSpans) received.spans.push(...scope.spans);
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return { server, url: `http://127.0.0.1:${address.port}`, received };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

async function traceOneSession(env: Record<string, string>) {
  const { server, url: collectorUrl, received } = await collector();
  try {
    const running = await startServer(env.DATA_DIR ?? seededDataDir(), {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    });
    const token = await login(running.url);
    const search = await api<{ data: unknown[] }>(running.url, token, 'GET', '/driver?search=Tracelot');
    expect(search.status).toBe(200);
    await waitUntil(() => received.spans.some((span) => span.name === 'GET /api/driver'), 30_000);
    // The spans still pending go on a clean stop.
    expect(await running.stop('SIGTERM')).toBe(0);
    return { received, output: running.output() };
  } finally {
    server.close();
  }
}

function expectRequestTraced(received: Received) {
  expect(received.service).toBe('flotteassur');
  const server = received.spans.find((span) => span.name === 'GET /api/driver')!;
  // The HTTP span is named and tagged by the route template (SERVER = 2).
  expect(server.kind).toBe(2);
  expect(attribute(server, 'http.route')).toBe('/api/driver');
  const inTrace = received.spans.filter((span) => span.traceId === server.traceId);
  const fastify = inTrace.find((span) => span.name === 'request' && attribute(span, 'http.route') === '/api/driver');
  expect(fastify?.parentSpanId).toBe(server.spanId);
  expect(String(attribute(fastify!, 'flotte.request_id'))).toMatch(/^[A-Za-z0-9_-]{16}$/);
  const statements = inTrace.filter((span) => attribute(span, 'db.system.name') === 'postgresql');
  expect(statements.length).toBeGreaterThan(0);
  // The list's own statement, in its organization's scope.
  expect(statements.some((span) => attribute(span, 'flotte.scope') === 'tenant' && String(attribute(span, 'db.query.text')).includes('drivers'))).toBe(true);
  // Probes and the web app's files are not traced; no search term, password or e-mail leaves.
  expect(received.spans.some((span) => String(attribute(span, 'http.route') ?? span.name).includes('/api/health'))).toBe(false);
  const everything = received.bodies.join('\n');
  for (const secret of ['Tracelot', DEMO_ADMIN.password, DEMO_ADMIN.email]) expect(everything).not.toContain(secret);
  return inTrace;
}

describe('traces of the built server', () => {
  it('embedded database: requests and statements reach the collector', async () => {
    const { received } = await traceOneSession({ DATA_DIR: seededDataDir() });
    expectRequestTraced(received);
  });

  const postgresUrl = inject('postgresUrl');
  it.skipIf(!postgresUrl)('PostgreSQL: the pg instrumentation adds the pool, its queries are not drawn twice', async () => {
    await withNewDatabase('otel', async (url) => {
      const { received } = await traceOneSession({ DATABASE_URL: url, DATA_DIR: scratch(), SEED_DEMO: 'true' });
      const inTrace = expectRequestTraced(received);
      // pg is patched: connecting is drawn (the pool's, or the connection's), its queries are ours only.
      expect(received.spans.some((span) => span.name.startsWith('pg-pool.connect') || span.name.startsWith('pg.connect'))).toBe(true);
      expect(received.spans.some((span) => span.name.startsWith('pg.query'))).toBe(false);
      expect(inTrace.some((span) => /^drivers_list/.test(span.name))).toBe(true);
    });
  });
});
