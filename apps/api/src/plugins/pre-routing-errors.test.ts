import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/**
 * Issue 9: errors met before a route runs — refused by Node's HTTP parser, by the router or by
 * the body parsers — answer like every other error: the French envelope and the security headers.
 * Sent on a real socket, since `inject` skips Node's parser.
 */

type RawAnswer = { status: number; headers: Record<string, string>; body: string };

let t: TestContext;
let port: number;
let reference: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
  reference = (await send('GET /api/health HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n')).headers;
});
afterAll(() => t?.close());

/** Writes the bytes as they are and reads the answer until the server closes. */
function send(request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      let body = rest.join('\r\n\r\n');
      if (headers['transfer-encoding'] === 'chunked') body = body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '').replace(/\r\n$/, '');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(request);
  });
}

const SECURITY_HEADERS = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'cache-control',
] as const;

function expectEnvelope(answer: RawAnswer, status: number, message: RegExp) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body);
  expect(body).toEqual({ statusCode: status, error: expect.any(String), message: expect.stringMatching(message) });
  expect(body.error).not.toBe('Error');
  for (const name of SECURITY_HEADERS) expect(answer.headers[name], name).toBe(reference[name]);
  expect(reference['content-security-policy']).toContain("default-src 'self'");
  expect(reference['cache-control']).toBe('no-store');
}

function post(path: string, contentType: string, body: string | Buffer, extra = '') {
  const length = Buffer.byteLength(body);
  return send(
    Buffer.concat([
      Buffer.from(`POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: ${contentType}\r\ncontent-length: ${length}\r\n${extra}connection: close\r\n\r\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
    ]),
  );
}

describe('errors before routing: the envelope and the security headers', () => {
  it('headers too large: 431', async () => {
    const answer = await send(`GET /api/health HTTP/1.1\r\nhost: localhost\r\nx-big: ${'a'.repeat(20_000)}\r\nconnection: close\r\n\r\n`);
    expectEnvelope(answer, 431, /trop longs/);
  });

  it('an address too long for the parser: 431', async () => {
    const answer = await send(`GET /api/driver?search=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`);
    expectEnvelope(answer, 431, /trop longs/);
  });

  it('a path parameter longer than the router takes: 414', async () => {
    const answer = await send(`GET /api/driver/${'a'.repeat(500)} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`);
    expectEnvelope(answer, 414, /trop longue/);
  });

  it('a malformed percent-encoding in the path: 400', async () => {
    const answer = await send('GET /api/driver/%E0%A4%A HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n');
    expectEnvelope(answer, 400, /Adresse de la requête invalide/);
  });

  it('a request line the parser refuses: 400', async () => {
    const answer = await send('GET /api/health HTTP/1.1 de trop\r\nhost: localhost\r\n\r\n');
    expectEnvelope(answer, 400, /Requête HTTP invalide/);
  });

  it('a body over the limit: 413', async () => {
    const answer = await post('/api/auth/login', 'application/json', JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024), password: 'x' }));
    expectEnvelope(answer, 413, /trop volumineuse/);
  });

  it('a body that is not JSON: 400', async () => {
    const answer = await post('/api/auth/login', 'application/json', '{"email": "a@exemple.fr",');
    expectEnvelope(answer, 400, /JSON valide/);
  });

  it('a JSON body that tries to set a prototype: 400', async () => {
    const answer = await post('/api/auth/login', 'application/json', '{"__proto__": {"admin": true}, "email": "a@exemple.fr", "password": "x"}');
    expectEnvelope(answer, 400, /JSON valide/);
  });

  it('an empty JSON body: 400', async () => {
    const answer = await post('/api/auth/login', 'application/json', '');
    expectEnvelope(answer, 400, /vide/);
  });

  it('an unsupported media type: 415', async () => {
    const answer = await post('/api/auth/login', 'application/xml', '<email>a@exemple.fr</email>');
    expectEnvelope(answer, 415, /Type de contenu non pris en charge/);
  });

  it('a content-length that does not match the body: 400', async () => {
    const answer = await send('POST /api/auth/login HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: abc\r\nconnection: close\r\n\r\n{}');
    expectEnvelope(answer, 400, /./);
  });
});
