import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { defineJob } from '../../platform/jobs/define-job.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import { purgeExpiredTrash } from './documents.service.js';

export type DocumentJobsDeps = { db: Database; storage: ObjectStorage; logger: { info(obj: object, msg?: string): void } };

/** The document management's background work (issue 14): each night, the trash's documents older than 30 days go for good. */
export function documentJobs({ db, storage, logger }: DocumentJobsDeps) {
  const purgeTrash = defineJob({
    name: 'documents.purge-trash',
    tenant: false,
    payload: z.object({}),
    schedule: '45 3 * * *',
    timeoutSeconds: 3_600,
    handler: async ({ system }) => {
      const purged = await purgeExpiredTrash({ db, storage }, system.read);
      if (purged > 0) logger.info({ purged }, 'documents de plus de 30 jours supprimés de la corbeille');
    },
  });
  return { purgeTrash };
}
