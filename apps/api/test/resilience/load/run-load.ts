import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { type LoadResult, MIX_TIMEOUT, percentile, Person, summarize } from '../../../../../bench/mix.js';
import { rng } from '../../../../../bench/typical.js';
import { type LoadTenant, type Write, Writer, type Writes } from './registers.js';

/**
 * The load of issue 20, point 10: the bench's people going through the registers as the web app
 * makes them (bench/mix.ts: page 1, typed searches, filters, sorts, later pages, the claim form's
 * lists), and every fourth request a write (creation, change or archive in every register).
 */

/** A process's resident memory in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`VmRSS absent pour le processus ${pid}`);
  return Math.round(Number(match[1]) / 1024);
}

/** The server's memory: RSS, and from its metrics the V8 heap (in use, reserved), memory outside it, the page cache (bounded: 2 000 pages, 64 MB). */
export type Memory = {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  /** The reserved heap by V8 space (new, old, code, large_object…). */
  heapSpacesMb: Record<string, number>;
  externalMb: number;
  pageCacheEntries: number;
  pageCacheMb: number;
  /** Read this long into a rest (load.resilience.ts: its lowest point). */
  afterSeconds?: number;
};

export async function memory(origin: string, pid: number, metricsToken: string): Promise<Memory> {
  const rss = rssMb(pid);
  const text = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  return {
    rssMb: rss,
    heapUsedMb: mb(gauge('nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(gauge('nodejs_heap_size_total_bytes')),
    heapSpacesMb: Object.fromEntries([...text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="([^"]+)"\} (\S+)$/gm)].map(([, space, bytes]) => [space, mb(Number(bytes))])),
    externalMb: mb(gauge('nodejs_external_memory_bytes')),
    pageCacheEntries: gauge('flotte_page_cache_entries'),
    pageCacheMb: mb(gauge('flotte_page_cache_bytes')),
  };
}

export type LoadRun = LoadResult & {
  /** Answers by status, for reads and for each kind of write. */
  byKind: Record<string, Record<string, number>>;
  /** p50 and p99 (ms) by kind of request. */
  latencyByKind: Record<string, { p50: number; p99: number }>;
  writesSent: number;
};

/** autocannon with `connections` people for `seconds`. */
export function runLoad(options: {
  origin: string;
  tenants: LoadTenant[];
  guarantees: string[];
  writes: Writes;
  connections: number;
  seconds: number;
  /** The first connection's seed (its people's choices): another run of the same server gives another one. */
  firstSeed?: number;
}): Promise<LoadRun> {
  const byKind: Record<string, Record<string, number>> = {};
  const latencies: Record<string, number[]> = {};
  let writesSent = 0;
  let seed = options.firstSeed ?? 1;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.origin,
        connections: options.connections,
        duration: options.seconds,
        timeout: MIX_TIMEOUT,
        setupClient(client) {
          const person = new Person(options.tenants, options.guarantees, rng(seed++ * 7919));
          const writer = new Writer(options.writes);
          let sent = 0;
          let write: Write | null = null;
          let kind = '';
          let startedAt = 0;
          client.setRequests([
            {
              setupRequest(request) {
                sent++;
                startedAt = performance.now();
                if (sent % 4 === 0 && person.tenant) {
                  const tenant = person.tenant as LoadTenant;
                  write = writer.next(tenant);
                  kind = write.kind;
                  writesSent++;
                  return {
                    ...request,
                    method: write.method,
                    path: write.path,
                    headers: { authorization: `Bearer ${tenant.token}`, ...(write.body ? { 'content-type': 'application/json' } : {}) },
                    body: write.body ?? '',
                  };
                }
                write = null;
                const step = person.next();
                // The bench's person sometimes adds a driver from the drivers' list: a creation too, kept in the ledger.
                if (step.method === 'POST') {
                  write = options.writes.create(person.tenant as LoadTenant, 'drivers');
                  writesSent++;
                }
                kind = write ? write.kind : `read.${step.kind.split('.')[0]}`;
                return {
                  ...request,
                  method: write ? write.method : step.method,
                  path: write ? write.path : step.path,
                  headers: { authorization: `Bearer ${person.tenant.token}`, ...(write ? { 'content-type': 'application/json' } : {}) },
                  body: write?.body ?? '',
                };
              },
              onResponse(status, body) {
                const counts = (byKind[kind] ??= {});
                counts[status] = (counts[status] ?? 0) + 1;
                (latencies[kind] ??= []).push(performance.now() - startedAt);
                if (write) write.answered(status, body);
                else person.answered(status, body);
              },
            },
          ]);
        },
      },
      (err, result) => {
        if (err) reject(err);
        else {
          const latencyByKind = Object.fromEntries(
            Object.entries(latencies).map(([k, ms]) => {
              const sorted = ms.sort((a, b) => a - b);
              return [k, { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)) }];
            }),
          );
          resolve({ ...summarize(result), byKind, latencyByKind, writesSent });
        }
      },
    );
  });
}
