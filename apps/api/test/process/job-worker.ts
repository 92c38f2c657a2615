/**
 * A worker process for jobs.process.ts (run with tsx): the database opened as the server opens it
 * (the embedded folder with its lock, or DATABASE_URL), a JobQueue with one kind whose first attempt
 * holds on until the process is killed. Each run appends `start|done <jobId> <pid> <attempt>` to
 * JOB_JOURNAL. SEND_JOB=true queues one job after start and prints `sent <id>`.
 */
import { appendFileSync } from 'node:fs';
import { pino } from 'pino';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/open.js';
import { defineJob } from '../../src/platform/jobs/define-job.js';
import { JobQueue } from '../../src/platform/jobs/job-queue.js';

const journal = process.env.JOB_JOURNAL;
if (!journal) throw new Error('JOB_JOURNAL is required');

const holdKind = defineJob({
  name: 'process-test.hold',
  tenant: false,
  payload: z.object({ holdMs: z.number().int().min(0) }),
  // Short, so that on PostgreSQL a killed worker's job expires quickly; long on the embedded
  // database, so that only the recovery at start can retry it (not an expiry during a slow start).
  timeoutSeconds: Number(process.env.JOB_TIMEOUT_SECONDS ?? 3),
  retry: { limit: 2, delaySeconds: 0, backoff: false },
  handler: async ({ jobId, attempt, payload, signal }) => {
    appendFileSync(journal, `start ${jobId} ${process.pid} ${attempt}\n`);
    if (attempt === 1) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, payload.holdMs);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason as Error);
        });
      });
    }
    appendFileSync(journal, `done ${jobId} ${process.pid} ${attempt}\n`);
  },
});

const config = loadConfig();
const log = pino({ level: 'warn' });
const database = await openDatabase(config, log);
const queue = new JobQueue(database, { logger: log, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
queue.register(holdKind);
await queue.start();
if (process.env.SEND_JOB === 'true') process.stdout.write(`sent ${await queue.send(holdKind, { holdMs: 60_000 })}\n`);
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void queue
    .stop({ timeoutMs: 3_000 })
    .then(() => database.close())
    .then(() => process.exit(0));
});
