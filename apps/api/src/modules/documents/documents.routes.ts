import multipart from '@fastify/multipart';
import {
  AncestorsParamsSchema,
  AncestorsSchema,
  CreateFolderBodySchema,
  DeleteDocumentQuerySchema,
  DOCUMENT_FILES_PER_UPLOAD,
  DocumentPageSchema,
  DocumentSchema,
  ExpiringQuerySchema,
  GedQuerySchema,
  MediaPageSchema,
  MediaQuerySchema,
  THUMBNAIL_SIZE,
  todayIso,
  TrashQuerySchema,
  UpdateDocumentBodySchema,
  UploadQuerySchema,
  UploadResultSchema,
  UuidParamsSchema,
} from '@flotte/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { databaseTroubleOf } from '../../db/availability.js';
import { AppError, BadRequestError, isNoSpace, PayloadTooLargeError, StorageFailureError } from '../../errors.js';
import { errorResponses } from '../../lib/route-schemas.js';
import { contentDisposition } from '../../lib/spreadsheet-export.js';
import { ENTITY_ROOT_FOLDER, type EntityType } from './attachments.repository.js';
import { requireFeature } from '../billing/feature-gate.js';
import * as service from './documents.service.js';
import * as mediaService from './media.service.js';
import { ADMINS, EVERY_ROLE } from '../../plugins/route-access.js';

export type DocumentRoutesOptions = { limits: service.DocumentLimits };

/** Files in one upload request (the contract's, which the web splits by). */
export const MAX_FILES_PER_UPLOAD = DOCUMENT_FILES_PER_UPLOAD;

const BinarySchema = z.string().meta({ format: 'binary' });
const NO_FILE = 'Joignez au moins un fichier (champ multipart « files »).';

/** A download is never rendered in the API's origin: an attachment, no sniffing, a sandbox without scripts. */
const DOWNLOAD_CSP = "default-src 'none'; sandbox; frame-ancestors 'none'";
/** An image shown inline: nothing but the image, no script. */
const IMAGE_PREVIEW_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";
/** Chromium's PDF viewer does not open under a sandbox; the PDF's own scripts run in the viewer, never in this origin. */
const PDF_PREVIEW_CSP = "default-src 'none'; object-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/**
 * One `bytes=start-end` or `bytes=start-` range (what a PDF viewer or a resumed download asks);
 * anything else (several ranges, a suffix) is ignored and the whole file is sent, as HTTP allows.
 */
export function byteRange(header: string | undefined): { start: number; end?: number } | undefined {
  const match = header ? /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header.trim()) : null;
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = match[2] === '' ? undefined : Number(match[2]);
  if (end !== undefined && end < start) return undefined;
  return { start, end };
}

/** Whether an If-None-Match header names this ETag (or is « * »). */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}

/** The registers whose records hold files, as their routes spell them (SPEC 3: their `documents`). */
const ATTACHABLE: { path: string; type: EntityType; tag: string; label: string }[] = [
  { path: '/driver', type: 'driver', tag: 'Conducteurs', label: 'd’un conducteur' },
  { path: '/vehicule', type: 'vehicule', tag: 'Véhicules', label: 'd’un véhicule' },
  { path: '/sinister', type: 'sinister', tag: 'Sinistres', label: 'd’un sinistre' },
];
const AttachmentParamsSchema = UuidParamsSchema.extend({ documentUuid: UuidParamsSchema.shape.uuid });

/** What @fastify/multipart throws, as the API's French errors. */
function multipartError(error: unknown, limits: service.DocumentLimits): unknown {
  // A full disk, a database or a store out of reach or refusing is not the request's fault: the error
  // handler answers them as for any route (507, 503 with Retry-After), not « joignez un fichier ».
  if (error instanceof AppError || error instanceof StorageFailureError || isNoSpace(error) || databaseTroubleOf(error)) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new PayloadTooLargeError(`Un fichier dépasse la taille maximale d’un document (${Math.round(limits.maxFileBytes / 1024 / 1024)} Mo).`);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') return new PayloadTooLargeError(`${MAX_FILES_PER_UPLOAD} fichiers au plus par envoi.`);
  return new BadRequestError(NO_FILE, [{ path: 'files', message: NO_FILE }]);
}

export const documentsRoutes: FastifyPluginAsyncZod<DocumentRoutesOptions> = async (app, { limits }) => {
  await app.register(multipart, { limits: { fileSize: limits.maxFileBytes + 1, files: MAX_FILES_PER_UPLOAD, fields: 0, parts: MAX_FILES_PER_UPLOAD } });
  const tags = ['Documents'];
  // The document management (GED) is a feature of the plan (decision 044); the records' and media's files are not.
  const ged = requireFeature(app, 'documents');
  const deps = () => ({ db: app.db, storage: app.storage, limits });

  /** Streams a multipart request's files into an upload session, then records them all (or nothing). */
  const receive = async (request: FastifyRequest, reply: FastifyReply, target: service.UploadTarget) => {
    if (!request.isMultipart()) throw new BadRequestError(NO_FILE, [{ path: 'files', message: NO_FILE }]);
    const upload = await service.startUpload(deps(), request.ctx, target);
    try {
      for await (const part of request.files()) {
        await upload.add({ fileName: part.filename ?? '', stream: part.file });
      }
    } catch (error) {
      await upload.discardAll();
      throw multipartError(error, limits);
    }
    const data = await upload.finish((error) => request.log.error({ err: error }, 'document upload: commit of a stored file failed (the cleanup job finishes it)'));
    return reply.status(201).send({ data });
  };
  const uploadBodyLimit = MAX_FILES_PER_UPLOAD * (limits.maxFileBytes + 64 * 1024);

  // A driver's, vehicle's or claim's files: listed, added (into its automatic folder of the GED), taken off.
  for (const { path, type, tag, label } of ATTACHABLE) {
    app.get(
      `${path}/:uuid/documents`,
      {
        config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
        schema: {
          tags: [tag],
          summary: `Les documents ${label}, par nom`,
          params: UuidParamsSchema,
          response: { 200: UploadResultSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => ({ data: await service.entityDocuments(app.db, request.ctx, { type, uuid: request.params.uuid }) }),
    );
    app.post(
      `${path}/:uuid/documents`,
      {
        config: { access: { roles: EVERY_ROLE, scope: 'organization' }, idempotent: true },
        bodyLimit: uploadBodyLimit,
        schema: {
          tags: [tag],
          summary: `Joint un ou plusieurs fichiers (champ multipart « files », ${MAX_FILES_PER_UPLOAD} au plus) ${label}`,
          description: `Rangés dans la GED sous « ${ENTITY_ROOT_FOLDER[type]}/… », dossier créé au premier envoi. Mêmes règles que /document/upload : type lu dans les octets, taille et espace limités, un fichier refusé annule tout l’envoi.`,
          consumes: ['multipart/form-data'],
          params: UuidParamsSchema,
          response: { 201: UploadResultSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 507) },
        },
      },
      (request, reply) => receive(request, reply, { entity: { type, uuid: request.params.uuid } }),
    );
    app.delete(
      `${path}/:uuid/documents/:documentUuid`,
      {
        config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
        schema: {
          tags: [tag],
          summary: `Retire un document ${label} : il va à la corbeille de la GED (30 jours)`,
          params: AttachmentParamsSchema,
          response: { 204: z.null().meta({ description: 'À la corbeille' }), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        await service.detach(app.db, request.ctx, { type, uuid: request.params.uuid }, request.params.documentUuid);
        return reply.status(204).send(null);
      },
    );
  }

  app.post(
    '/document/folder',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      preHandler: ged,
      schema: {
        tags,
        summary: 'Crée un dossier (à la racine sans parent)',
        body: CreateFolderBodySchema,
        response: { 201: DocumentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createFolder(app.db, request.ctx, request.body)),
  );

  app.get(
    '/document/ged/paginated',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      preHandler: ged,
      schema: {
        tags,
        summary: 'Contenu d’un dossier (racine sans parent), dossiers d’abord puis fichiers, par nom ; avec search : les noms de toute l’arborescence (sans accents ni casse)',
        querystring: GedQuerySchema,
        response: { 200: DocumentPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.page(app.db, request.ctx, request.query),
  );

  app.get(
    '/document/expiring',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      preHandler: ged,
      schema: {
        tags,
        summary: 'Documents dont la date d’expiration est passée ou tombe dans les `days` jours (30 par défaut), les plus proches d’abord',
        querystring: ExpiringQuerySchema,
        response: { 200: DocumentPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => service.expiring(app.db, request.ctx, request.query, todayIso()),
  );

  app.get(
    '/document/media',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'La médiathèque : tous les fichiers (ni dossiers ni corbeille), les plus récents d’abord ; filtres kind (image, pdf, other), entity (driver, vehicule, sinister, none) et search (noms, sans accents ni casse)',
        description: 'Chaque fichier porte `entity` : l’enregistrement auquel il est joint (type, uuid, libellé : « Nom Prénom », immatriculation, référence ou date du sinistre ; libellé null s’il n’existe plus), ou null.',
        querystring: MediaQuerySchema,
        response: { 200: MediaPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => mediaService.mediaPage(app.db, request.ctx, request.query),
  );

  app.get(
    '/document/ancestors/:parent',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      preHandler: ged,
      schema: {
        tags,
        summary: 'Chemin d’un dossier depuis la racine (lui compris), pour le fil d’Ariane « Mes documents › … »',
        params: AncestorsParamsSchema,
        response: { 200: AncestorsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.ancestors(app.db, request.ctx, request.params.parent),
  );

  app.post(
    '/document/upload',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' }, idempotent: true },
      // Streamed to the storage file by file: the body limit only bounds one request's files.
      bodyLimit: uploadBodyLimit,
      schema: {
        tags,
        summary: `Dépose un ou plusieurs fichiers (champ multipart « files », ${MAX_FILES_PER_UPLOAD} au plus) dans un dossier (racine sans parent)`,
        description:
          'Le type est lu dans les octets du fichier (PDF, JPEG, PNG, WebP, HEIC, Word, Excel, PowerPoint, OpenDocument, CSV), jamais dans son nom. Taille et espace de l’organisation limités. Un fichier refusé annule tout l’envoi : rien n’est gardé. Un nom déjà pris devient « nom (2) ».',
        consumes: ['multipart/form-data'],
        querystring: UploadQuerySchema,
        response: { 201: UploadResultSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 507) },
      },
    },
    (request, reply) => receive(request, reply, { parentUuid: request.query.parent ?? null }),
  );

  app.patch(
    '/document/:uuid',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Renomme (name), déplace (parent : un dossier, null pour la racine ; jamais dans son propre sous-dossier) ou date l’expiration (expiresOn) d’un document',
        params: UuidParamsSchema,
        body: UpdateDocumentBodySchema,
        response: { 200: DocumentSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => service.update(app.db, request.ctx, request.params.uuid, request.body),
  );

  app.delete(
    '/document/:uuid',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Met un document à la corbeille (30 jours) ; un dossier non vide seulement avec recursive=true, avec tout son contenu',
        params: UuidParamsSchema,
        querystring: DeleteDocumentQuerySchema,
        response: { 204: z.null().meta({ description: 'À la corbeille' }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.remove(app.db, request.ctx, request.params.uuid, request.query.recursive ?? false);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/document/trash',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'La corbeille : les documents supprimés (avec leur contenu pour un dossier), les plus récents d’abord ; purgés après 30 jours',
        querystring: TrashQuerySchema,
        response: { 200: DocumentPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => service.trash(app.db, request.ctx, request.query),
  );

  app.post(
    '/document/:uuid/restore',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Restaure un document de la corbeille avec son contenu, dans son dossier s’il existe encore (sinon à la racine)',
        params: UuidParamsSchema,
        response: { 200: DocumentSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => service.restore(app.db, request.ctx, request.params.uuid),
  );

  app.delete(
    '/document/:uuid/permanent',
    {
      config: { access: { roles: ADMINS, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Supprime définitivement un document de la corbeille et son contenu (administrateurs)',
        params: UuidParamsSchema,
        response: { 204: z.null().meta({ description: 'Supprimé' }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.purge(deps(), request.ctx, request.params.uuid);
      return reply.status(204).send(null);
    },
  );

  const send = async (reply: FastifyReply, file: Awaited<ReturnType<typeof service.open>>, inline: boolean, ranged: boolean) => {
    const disposition = contentDisposition(file.name);
    const csp = !inline ? DOWNLOAD_CSP : file.type === 'application/pdf' ? PDF_PREVIEW_CSP : IMAGE_PREVIEW_CSP;
    const { object } = file;
    if (ranged) reply.status(206).header('content-range', `bytes ${object.start}-${object.end}/${object.size}`);
    return reply
      .header('content-type', file.type)
      .header('content-length', String(object.end - object.start + 1))
      .header('accept-ranges', 'bytes')
      .header('content-disposition', inline ? disposition.replace(/^attachment/, 'inline') : disposition)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', csp)
      .header('cache-control', 'private, no-store')
      .send(file.object.body as unknown as string);
  };

  app.get(
    '/document/:uuid/download',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Télécharge un fichier, en pièce jointe sous son nom (en-tête Range : une plage d’octets, réponse 206)',
        params: UuidParamsSchema,
        response: {
          200: { description: 'Le fichier, en pièce jointe.', content: { 'application/octet-stream': { schema: BinarySchema } } },
          206: { description: 'La plage d’octets demandée.', content: { 'application/octet-stream': { schema: BinarySchema } } },
          ...errorResponses(400, 401, 403, 404, 416),
        },
      },
    },
    async (request, reply) => {
      const range = byteRange(request.headers.range);
      return send(reply, await service.open(deps(), request.ctx, request.params.uuid, false, range), false, range !== undefined);
    },
  );

  app.get(
    '/document/:uuid/preview',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: 'Affiche une image (JPEG, PNG, WebP) ou un PDF dans le navigateur',
        params: UuidParamsSchema,
        response: {
          200: { description: 'Le fichier, à afficher.', content: { 'application/octet-stream': { schema: BinarySchema } } },
          206: { description: 'La plage d’octets demandée.', content: { 'application/octet-stream': { schema: BinarySchema } } },
          ...errorResponses(400, 401, 403, 404, 415, 416),
        },
      },
    },
    async (request, reply) => {
      const range = byteRange(request.headers.range);
      return send(reply, await service.open(deps(), request.ctx, request.params.uuid, true, range), true, range !== undefined);
    },
  );

  app.get(
    '/document/:uuid/thumbnail',
    {
      config: { access: { roles: EVERY_ROLE, scope: 'organization' } },
      schema: {
        tags,
        summary: `La miniature d’une image (JPEG, PNG, WebP, HEIC lisible) : un WebP de ${THUMBNAIL_SIZE} px au plus de côté, faite à la première demande puis gardée`,
        params: UuidParamsSchema,
        response: {
          200: { description: 'La miniature (image/webp).', content: { 'image/webp': { schema: BinarySchema } } },
          304: z.null().meta({ description: 'Inchangée depuis la version que le navigateur garde (If-None-Match)' }),
          ...errorResponses(400, 401, 403, 404, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const thumbnail = await mediaService.thumbnail(deps(), request.ctx, request.params.uuid, {
        isFresh: (etag) => ifNoneMatch(request.headers['if-none-match'], etag),
        onStoreFailure: (error) => request.log.warn({ err: error }, 'document thumbnail: not kept in the storage (made again at the next request)'),
      });
      reply
        .header('etag', thumbnail.etag)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', IMAGE_PREVIEW_CSP)
        // An organization's file (a licence, a claim's photo): never kept on a disk, as no API answer
        // with personal data is (issue 20); a client that keeps it in memory may still send its ETag.
        .header('cache-control', 'private, no-store')
        .header('vary', 'authorization');
      if (thumbnail.body === null) return reply.status(304).send(null);
      return reply
        .header('content-type', 'image/webp')
        .header('content-length', String(thumbnail.size))
        .header('content-disposition', contentDisposition(thumbnail.name).replace(/^attachment/, 'inline'))
        .send(thumbnail.body as unknown as string);
    },
  );
};
