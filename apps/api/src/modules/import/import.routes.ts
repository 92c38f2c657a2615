import multipart from '@fastify/multipart';
import {
  ImportCommitBodySchema,
  ImportCommitResultSchema,
  ImportEntityParamsSchema,
  ImportIdParamsSchema,
  ImportListSchema,
  ImportPreviewQuerySchema,
  ImportPreviewSchema,
  ImportRevertSchema,
  ImportSummarySchema,
  ImportValidateBodySchema,
  ImportValidationSchema,
} from '@flotte/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BadRequestError, PayloadTooLargeError } from '../../errors.js';
import { sendExportedFile } from '../../lib/register-export.js';
import { EXPORTED_FILE } from '../../lib/register-routes.js';
import { errorResponses } from '../../lib/route-schemas.js';
import type { JobKind } from '../../platform/jobs/define-job.js';
import type { FleetNotifier } from '../insurance-intermediary/insurance-intermediary.service.js';
import * as service from './import.service.js';
import { IMPORT_LIMITS, MESSAGES } from './spreadsheet.js';
import { EVERY_ROLE } from '../../plugins/route-access.js';

export type ImportRoutesOptions = { publicUrl: string | undefined; commitJob: JobKind<{ organizationUuid: string; importId: string; userUuid: string; input: service.CommitInput }> };

const NO_FILE = 'Joignez un fichier CSV ou Excel (.xlsx) dans le champ « file ».';

/** The uploaded file, whole (at most 20 MB): nothing is kept before it is read. */
async function uploadedFile(request: FastifyRequest): Promise<{ fileName: string; buffer: Buffer }> {
  if (!request.isMultipart()) throw new BadRequestError(NO_FILE, [{ path: 'file', message: NO_FILE }]);
  let part;
  try {
    part = await request.file({ limits: { fileSize: IMPORT_LIMITS.maxBytes, files: 1, fields: 5, parts: 6 } });
  } catch {
    throw new BadRequestError(NO_FILE, [{ path: 'file', message: NO_FILE }]);
  }
  if (!part || part.fieldname !== 'file') throw new BadRequestError(NO_FILE, [{ path: 'file', message: NO_FILE }]);
  let buffer: Buffer;
  try {
    buffer = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError(MESSAGES.tooLarge);
    throw new BadRequestError(NO_FILE, [{ path: 'file', message: NO_FILE }]);
  }
  return { fileName: part.filename ?? 'fichier', buffer };
}

export const importRoutes: FastifyPluginAsyncZod<ImportRoutesOptions> = async (app, { publicUrl, commitJob }) => {
  await app.register(multipart, { limits: { fileSize: IMPORT_LIMITS.maxBytes, files: 1 } });
  const tags = ['Imports'];
  const deps = () => ({ db: app.db, storage: app.storage });
  const notifier = (request: FastifyRequest): FleetNotifier => ({ mail: app.mail, baseUrl: publicUrl ?? `${request.protocol}://${request.host}` });

  app.post(
    '/import/:entity/preview',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' }, idempotent: true },
      // The file is read whole: the route's body limit is the file's (20 MB) plus the multipart envelope.
      bodyLimit: IMPORT_LIMITS.maxBytes + 64 * 1024,
      schema: {
        tags,
        summary: 'Lit un fichier CSV ou Excel (champ multipart « file ») : en-têtes, correspondance proposée, nombre de lignes, aperçu',
        description: 'Excel : la première feuille avec des données, ou celle nommée par `sheet` ; la réponse nomme les feuilles du classeur.',
        consumes: ['multipart/form-data'],
        params: ImportEntityParamsSchema,
        querystring: ImportPreviewQuerySchema,
        response: { 200: ImportPreviewSchema, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async (request) => service.preview(deps(), request.ctx, request.params.entity, await uploadedFile(request), request.query.sheet),
  );

  app.post(
    '/import/:importId/validate',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Vérifie chaque ligne avec la correspondance donnée : lignes valides et invalides, erreurs par ligne et par champ (mode compare : nouveaux, absents, modifiés)',
        params: ImportIdParamsSchema,
        body: ImportValidateBodySchema,
        response: { 200: ImportValidationSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.validate(deps(), request.ctx, request.params.importId, request.body),
  );

  app.get(
    '/import/:importId/errors',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Toutes les erreurs de la dernière vérification, en CSV (UTF-8 avec BOM, « ; ») : ligne comme dans Excel, colonne, message',
        params: ImportIdParamsSchema,
        response: { 200: EXPORTED_FILE, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => sendExportedFile(reply, await service.errorsFile(deps(), request.ctx, request.params.importId)),
  );

  app.post(
    '/import/:importId/commit',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' }, idempotent: true },
      schema: {
        tags,
        summary: 'Applique toutes les lignes valides en une transaction (au-delà de 5 000 lignes, en tâche de fond : 202, suivre GET /import/{importId})',
        params: ImportIdParamsSchema,
        body: ImportCommitBodySchema,
        response: { 200: ImportCommitResultSchema, 202: ImportCommitResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const queue = (tx: Parameters<NonNullable<Parameters<typeof service.commit>[0]['queue']>>[0], payload: Parameters<NonNullable<Parameters<typeof service.commit>[0]['queue']>>[1]) =>
        app.jobs.send(commitJob, payload, { tx });
      const result = await service.commit({ ...deps(), queue }, request.ctx, request.params.importId, request.body, notifier(request));
      return reply.status(result.status === 'queued' ? 202 : 200).send(result);
    },
  );

  app.post(
    '/import/:importId/revert',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' }, idempotent: true },
      schema: {
        tags,
        summary: "Annule un import dans les 24 h : supprime ce qu'il a créé, remet ce qu'il a modifié ou sorti, sauf les lignes modifiées depuis",
        params: ImportIdParamsSchema,
        response: { 200: ImportRevertSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    (request) => service.revert(app.db, request.ctx, request.params.importId, notifier(request)),
  );

  app.get(
    '/import',
    { config: { access: { roles: EVERY_ROLE, scope: 'organization' } }, schema: { tags, summary: "Historique des imports de l'organisation (les 100 derniers)", response: { 200: ImportListSchema, ...errorResponses(401, 403) } } },
    (request) => service.list(app.db, request.ctx),
  );

  app.get(
    '/import/:importId',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: "Où en est un import : statut, pourcentage, comptes",
        params: ImportIdParamsSchema,
        response: { 200: ImportSummarySchema, ...errorResponses(401, 403, 404) },
      },
    },
    (request) => service.getOne(app.db, request.ctx, request.params.importId),
  );
};
