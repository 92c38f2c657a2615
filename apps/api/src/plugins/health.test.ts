import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { type DatabaseHandle, fairShareOf } from '../db/client.js';
import { withSystem, withTenant } from '../db/scope.js';
import { createOrganization } from '../seed/factories.js';
import { createTestDatabase } from '../../test/test-app.js';
import type { ReadinessCheck } from './health.js';

/**
 * GET /api/health (the process is up) and GET /api/ready (what the instance needs answers), for
 * load balancers: public, cheap, in the error envelope when not ready (decision 020).
 */

const onPostgres = inject('testDb').kind === 'postgres';
const config = loadConfig({ APP_SECRET: 'test-secret-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent' });

async function appWith(database: DatabaseHandle, readinessChecks: ReadinessCheck[] = []): Promise<FastifyInstance> {
  const app = await buildApp(config, database, { serveWeb: false, logger: false, readinessChecks });
  await app.ready();
  return app;
}

describe('health and readiness', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await appWith(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('GET /api/health answers 200 without a token, and is never cached', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('GET /api/ready answers 200 with each check when the database and the job queue answer', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', queue: 'ok' } });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('accepts only GET and HEAD', async () => {
    expect((await app.inject({ method: 'HEAD', url: '/api/ready' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/ready' })).statusCode).toBe(404);
  });

  it.runIf(onPostgres)('stays ready while an organization holds its whole share of the pool: the check has a connection of its own', async () => {
    const org = (await withSystem(database.db, (tx) => createOrganization(tx, { title: 'Occupée' }))).uuid;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    // The test pool has 4 connections: one organization alone holds at most half, two at once.
    const holders = [0, 1, 2].map(() =>
      withTenant(database.db, org, async () => {
        started++;
        await released;
      }),
    );
    try {
      for (let i = 0; i < 200 && started < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(fairShareOf(database.db)?.waiting).toBe(1);
      const began = Date.now();
      const response = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(response.statusCode).toBe(200);
      expect(Date.now() - began).toBeLessThan(1_000);
    } finally {
      release();
      await Promise.all(holders);
    }
  });
});

describe('readiness checks given to buildApp (a storage bucket, say)', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('answers 503 with Retry-After, a French message and the failing checks: false, thrown, or too slow', async () => {
    const app = await appWith(database, [
      { name: 'storage', check: () => false },
      { name: 'thrown', check: () => Promise.reject(new Error('refused')) },
      { name: 'slow', check: () => new Promise<void>(() => undefined) },
      { name: 'fine', check: async () => true },
    ]);
    try {
      const began = Date.now();
      const response = await app.inject({ method: 'GET', url: '/api/ready' });
      // Bounded: the slow check counts as failed after 2.5 s.
      expect(Date.now() - began).toBeLessThan(4_000);
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: "Le service n'est pas prêt : une ressource dont il dépend ne répond pas.",
        details: [
          { path: 'storage', message: 'ne répond pas' },
          { path: 'thrown', message: 'ne répond pas' },
          { path: 'slow', message: 'aucune réponse en 2.5 s' },
        ],
        requestId: response.headers['x-request-id'],
      });
      // Liveness says nothing about the checks.
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('runs the checks once for probes arriving together', async () => {
    let calls = 0;
    const app = await appWith(database, [
      {
        name: 'storage',
        check: async () => {
          calls++;
          await new Promise((resolve) => setTimeout(resolve, 50));
        },
      },
    ]);
    try {
      const responses = await Promise.all(Array.from({ length: 5 }, () => app.inject({ method: 'GET', url: '/api/ready' })));
      expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(responses[0]!.json()).toEqual({ status: 'ok', checks: { database: 'ok', queue: 'ok', storage: 'ok' } });
      expect(calls).toBe(1);
      // A later probe checks again.
      await app.inject({ method: 'GET', url: '/api/ready' });
      expect(calls).toBe(2);
    } finally {
      await app.close();
    }
  });
});
