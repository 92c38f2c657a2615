import net from 'node:net';

/**
 * Slowloris clients on raw sockets: `headers` trickle a request's headers a line at a time and
 * never end them; `bodies` send whole headers announcing a body, then trickle it a byte at a time.
 * While running, a client the server closes is replaced, so the pressure stays the same; every
 * connection's life (how long until the server closed it, what it answered) is kept.
 */
export type SlowConnection = { kind: 'headers' | 'body'; openedAt: number; closedAt: number | null; answer: string };

export function startSlowClients(origin: string, options: { headers: number; bodies: number; everyMs: number; token: string }) {
  const { hostname, port } = new URL(origin);
  const connections: SlowConnection[] = [];
  const sockets = new Set<net.Socket>();
  let running = true;

  const open = (kind: SlowConnection['kind']) => {
    if (!running) return;
    const life: SlowConnection = { kind, openedAt: Date.now(), closedAt: null, answer: '' };
    connections.push(life);
    const socket = net.connect({ host: hostname, port: Number(port) });
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      if (kind === 'headers') {
        socket.write(`GET /api/driver HTTP/1.1\r\nHost: ${hostname}\r\n`);
        let n = 0;
        timer = setInterval(() => socket.write(`X-Lent-${n++}: a\r\n`), options.everyMs);
      } else {
        socket.write(
          `POST /api/driver HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${options.token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
        );
        timer = setInterval(() => socket.write(' '), options.everyMs);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      if (life.answer.length < 200) life.answer += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      life.closedAt = Date.now();
      open(kind);
    });
  };
  for (let i = 0; i < options.headers; i++) open('headers');
  for (let i = 0; i < options.bodies; i++) open('body');

  return {
    connections,
    /** Stops replacing closed clients and closes those still open; returns every connection's life. */
    stop(): SlowConnection[] {
      running = false;
      for (const socket of sockets) socket.destroy();
      return connections;
    },
  };
}
