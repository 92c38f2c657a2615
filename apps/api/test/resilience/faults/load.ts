/**
 * Traffic of real clients on a running server, every answer recorded: readers list a register,
 * writers create drivers whose last name is a unique marker, so that afterwards the database can
 * be searched for every write, acknowledged or not.
 */

export type Sample = {
  kind: 'read' | 'write';
  started: number;
  ended: number;
  /** 0: no HTTP answer at all (connection refused or reset, or no answer within the client's limit). */
  status: number;
  retryAfter: string | null;
  message: string | null;
  /** Writes: the driver's last name, unique to this write. */
  marker?: string;
};

/** A client's own limit: far beyond the 5 s an answer must come in, so a hang is measured, not cut short. */
const CLIENT_LIMIT_MS = 30_000;

async function timedFetch(kind: Sample['kind'], url: string, init: RequestInit, marker?: string): Promise<Sample> {
  const started = Date.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(CLIENT_LIMIT_MS) });
    const text = await response.text();
    let message: string | null = null;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? null;
    } catch {
      // not JSON: message stays null
    }
    return { kind, started, ended: Date.now(), status: response.status, retryAfter: response.headers.get('retry-after'), message, ...(marker ? { marker } : {}) };
  } catch {
    return { kind, started, ended: Date.now(), status: 0, retryAfter: null, message: null, ...(marker ? { marker } : {}) };
  }
}

export type Load = {
  readonly samples: readonly Sample[];
  stop(): Promise<Sample[]>;
};

/** `readers` loops of GET /api/driver and `writers` loops of POST /api/driver, until stop(). */
export function startLoad(url: string, token: string, options: { readers: number; writers: number; markerPrefix: string }): Load {
  const samples: Sample[] = [];
  let running = true;
  const headers = { authorization: `Bearer ${token}` };
  const loop = async (next: () => Promise<Sample>) => {
    while (running) {
      const sample = await next();
      samples.push(sample);
      // A refused request is tried again a moment later, as a client would: not a busy loop.
      if (sample.status < 200 || sample.status >= 300) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const loops = [
    ...Array.from({ length: options.readers }, () => loop(() => timedFetch('read', `${url}/api/driver?limit=20`, { headers }))),
    ...Array.from({ length: options.writers }, (_, writer) => {
      let n = 0;
      return loop(() => {
        const marker = `${options.markerPrefix}-${writer}-${n++}`;
        return timedFetch(
          'write',
          `${url}/api/driver`,
          { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ firstName: 'Charge', lastName: marker }) },
          marker,
        );
      });
    }),
  ];
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
      return samples;
    },
  };
}

/** Polls `probe` every `everyMs` until stop(): the answers of a load balancer's probe. */
export function poll(url: string, everyMs: number) {
  const answers: { at: number; status: number; ms: number }[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = Date.now();
      const status = await fetch(url, { signal: AbortSignal.timeout(CLIENT_LIMIT_MS) }).then(
        (response) => response.status,
        () => 0,
      );
      answers.push({ at: started, status, ms: Date.now() - started });
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    answers,
    async stop() {
      running = false;
      await done;
      return answers;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
