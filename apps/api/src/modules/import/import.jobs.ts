import { ImportCommitBodySchema } from '@flotte/contract';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { defineJob } from '../../platform/jobs/define-job.js';
import type { MailService } from '../../platform/platform-jobs.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import { cleanupStaleImports, runQueuedCommit } from './import.service.js';

export type ImportJobsDeps = { db: Database; storage: ObjectStorage; mail: () => MailService; publicUrl: string | undefined; logger: { info(obj: object, msg?: string): void } };

/**
 * The imports' background work (issue 13): a commit of more than 5 000 rows, and each night the
 * removal of imports previewed but never committed (their file with them).
 */
export function importJobs({ db, storage, mail, publicUrl, logger }: ImportJobsDeps) {
  const commit = defineJob({
    name: 'import.commit',
    tenant: true,
    payload: z.object({ importId: z.uuid(), userUuid: z.uuid(), input: ImportCommitBodySchema }),
    // One transaction: an interrupted attempt left nothing, a retry starts over (the import row says whether it is done).
    retry: { limit: 2, delaySeconds: 10, backoff: true },
    timeoutSeconds: 900,
    handler: async ({ payload, tenant }) => {
      // Without PUBLIC_URL, the e-mail's links have no origin to point to: the intermediary still hears of the movements.
      const notifier = { mail: mail(), baseUrl: publicUrl ?? 'http://localhost' };
      await runQueuedCommit({ db, storage }, tenant.write, payload, notifier);
    },
  });
  const cleanup = defineJob({
    name: 'import.cleanup',
    tenant: false,
    payload: z.object({}),
    schedule: '15 3 * * *',
    timeoutSeconds: 3_600,
    handler: async ({ system }) => {
      const removed = await cleanupStaleImports({ db, storage }, system.read);
      if (removed > 0) logger.info({ removed }, 'imports abandonnés supprimés');
    },
  });
  return { commit, cleanup };
}
