import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { defineJob } from '../../platform/jobs/define-job.js';
import type { MailService } from '../../platform/platform-jobs.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import { purgeExpiredTrash } from './documents.service.js';
import { raiseExpiryNotices } from './expiry-notices.service.js';

export type DocumentJobsDeps = {
  db: Database;
  storage: ObjectStorage;
  mail: () => MailService;
  publicUrl: string | undefined;
  logger: { info(obj: object, msg?: string): void };
};

/**
 * The document management's background work (issue 14): each night, the trash's documents older
 * than 30 days go for good; each morning, the documents expired or expiring within 30 days are
 * raised for the alerts and told to each organization's administrators.
 */
export function documentJobs({ db, storage, mail, publicUrl, logger }: DocumentJobsDeps) {
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
  const expiryNotices = defineJob({
    name: 'documents.expiry-notices',
    tenant: false,
    payload: z.object({}),
    // Before the working day starts, Paris time: the e-mail is there when the office opens.
    schedule: '0 7 * * *',
    timeoutSeconds: 1_800,
    handler: async ({ system }) => {
      // Without PUBLIC_URL, the e-mail's link has no origin to point to: the administrators still hear of the documents.
      const report = await raiseExpiryNotices({ db, mail: mail(), baseUrl: publicUrl ?? 'http://localhost' }, system.read);
      if (report.notices > 0) logger.info({ ...report }, 'documents à renouveler signalés');
    },
  });
  return { purgeTrash, expiryNotices };
}
