import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StripeCall = { method: string; path: string; form: Record<string, string>; idempotencyKey: string | undefined };

/**
 * A local HTTP server answering as the Stripe API does for the calls the Stripe provider makes
 * (decision 044): create and retrieve a Checkout session, update a subscription item. Every call
 * is recorded with its form-encoded body and its Idempotency-Key; a session created again with the
 * same key is the first one, as at Stripe; `failNext` makes the next call answer Stripe's error.
 */
export async function startFakeStripe() {
  const calls: StripeCall[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const sessionByKey = new Map<string, Record<string, unknown>>();
  let failNext = false;
  let counter = 0;
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => resolve(body));
    });
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const form = Object.fromEntries(new URLSearchParams(request.method === 'GET' ? url.search : await read(request)));
    const idempotencyKey = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : undefined;
    calls.push({ method: request.method ?? 'GET', path: url.pathname, form, idempotencyKey });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++counter}` });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== 'Bearer sk_test_fake') return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    if (failNext) {
      failNext = false;
      return send(400, { error: { type: 'invalid_request_error', message: 'No such subscription item' } });
    }
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const known = idempotencyKey ? sessionByKey.get(idempotencyKey) : undefined;
      if (known) return send(200, known);
      const id = `cs_test_${++counter}`;
      const session = { id, object: 'checkout.session', mode: 'subscription', status: 'open', payment_status: 'unpaid', url: `https://checkout.stripe.com/c/pay/${id}`, metadata: {} };
      sessions.set(id, session);
      if (idempotencyKey) sessionByKey.set(idempotencyKey, session);
      return send(200, session);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && retrieve) {
      const session = sessions.get(retrieve[1]!);
      return session ? send(200, session) : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
    }
    const item = /^\/v1\/subscription_items\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'POST' && item) return send(200, { id: item[1], object: 'subscription_item', quantity: Number(form.quantity) });
    return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${url.pathname})` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    /** Marks a session paid, as Stripe does when the customer pays on its page. */
    complete(id: string) {
      Object.assign(sessions.get(id)!, { status: 'complete', payment_status: 'paid' });
    },
    failNextCall() {
      failNext = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
