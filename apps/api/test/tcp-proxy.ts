import net from 'node:net';

/**
 * A TCP proxy a test controls, between the app and PostgreSQL (or any server): `cut()` drops
 * every connection and refuses new ones, as a stopped server or a cut network does; `freeze()`
 * keeps the connections but lets nothing through, as a network that silently drops packets;
 * `restore()` lets connections through again.
 */
export type TcpProxy = {
  port: number;
  cut(): void;
  freeze(): void;
  restore(): void;
  /** Connections currently open through the proxy. */
  readonly connections: number;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let state: 'open' | 'cut' | 'frozen' = 'open';
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();

  const server = net.createServer((client) => {
    if (state === 'cut') {
      // A refused connection as a stopped server gives it: reset at once.
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target);
    const pair = { client, upstream };
    pairs.add(pair);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => {
        // Frozen: the bytes are lost, as on a network that drops packets.
        if (state === 'open' && !to.destroyed) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      pairs.delete(pair);
      if (!client.destroyed) client.destroy();
      if (!upstream.destroyed) upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    cut() {
      state = 'cut';
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    freeze() {
      state = 'frozen';
    },
    restore() {
      state = 'open';
    },
    get connections() {
      return pairs.size;
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
