import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase } from '../../../test/test-app.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { DatabaseHandle } from '../../db/client.js';
import { defineJob } from './define-job.js';
import { until } from '../../../test/until.js';

const ENV = { APP_SECRET: 'test-secret-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent', JOBS_POLL_INTERVAL_SECONDS: '0.5' };

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

function kindRecording(runs: string[]) {
  return defineJob({ name: 'test.app-wiring', tenant: false, payload: z.object({ label: z.string() }), handler: async ({ payload }) => void runs.push(payload.label) });
}


describe('buildApp wires the job queue', () => {
  it('starts it when the app is ready, runs registered kinds, and stops it when the app closes', async () => {
    const runs: string[] = [];
    const kind = kindRecording(runs);
    const app = await buildApp(loadConfig({ ...ENV, JOBS_WORKER: 'true' }), database, { serveWeb: false, logger: false });
    app.jobs.register(kind);
    expect(app.jobs.isReady()).toBe(false);
    await app.ready();
    expect(app.jobs.isReady()).toBe(true);
    await app.jobs.send(kind, { label: 'premier' });
    await until(() => runs.includes('premier'));
    await app.close();
    expect(app.jobs.isReady()).toBe(false);
    await expect(app.jobs.send(kind, { label: 'après' })).rejects.toThrow(/closed/);
  });

  it('with JOBS_WORKER=false the process sends but does not run: a worker process runs them', async () => {
    const runs: string[] = [];
    const kind = kindRecording(runs);
    const sender = await buildApp(loadConfig({ ...ENV, JOBS_WORKER: 'false' }), database, { serveWeb: false, logger: false });
    sender.jobs.register(kind);
    await sender.ready();
    await sender.jobs.send(kind, { label: 'envoyée' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(runs).toEqual([]);
    const worker = await buildApp(loadConfig({ ...ENV, JOBS_WORKER: 'true' }), database, { serveWeb: false, logger: false });
    worker.jobs.register(kind);
    await worker.ready();
    await until(() => runs.includes('envoyée'));
    await sender.close();
    await worker.close();
  });
});
