import { IdParamsSchema, UuidParamsSchema } from '@flotte/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import type { ObjectStorage } from '../platform/storage/storage.js';
import { etagOfPage, NotModified, type ReadOptions } from '../db/list-kit.js';
import type { AuthContext } from './auth-context.js';
import { type ExportedFile, sendExportedFile } from './register-export.js';
import { wantsFresh } from './page-cache.js';
import { errorResponses } from './route-schemas.js';
import { ADMINS, EVERY_ROLE, type RouteAccess } from '../plugins/route-access.js';

/** A register's calls work on the caller's current organization, for every member (its hard deletion: its administrators). */
const MEMBERS: RouteAccess = { roles: EVERY_ROLE, scope: 'organization' };

/** The instance a module's routes plugin receives. */
type App = Parameters<FastifyPluginAsyncZod>[0];
type Schema = z.ZodType;

/**
 * How a list route reads: computed afresh when the client asks (`Cache-Control: no-cache`),
 * otherwise from the page cache; not at all when the page the client holds is still current
 * (`If-None-Match`: 304, no body).
 */
function readOptions(request: FastifyRequest): ReadOptions {
  const ifNoneMatch = request.headers['if-none-match'];
  return { fresh: wantsFresh(request.headers), ...(ifNoneMatch ? { ifNoneMatch } : {}) };
}

/**
 * A paginated list endpoint: GET `path` with the list's query schema, answering its page schema
 * with the page's ETag. The one place that reads the client's cache headers for the list kit.
 */
export type ListRouteConfig<Q extends Schema, P extends Schema> = {
  tags: string[];
  summary: string;
  querystring: Q;
  response: P;
  list: (db: Database, ctx: AuthContext, query: z.output<Q>, options: ReadOptions) => Promise<z.input<P>>;
};

export function listRoute<Q extends Schema, P extends Schema>(app: App, path: string, route: ListRouteConfig<Q, P>) {
  const typed = app as unknown as FastifyInstance;
  typed.get(
    path,
    {
      config: { access: MEMBERS },
      schema: {
        tags: route.tags,
        summary: route.summary,
        querystring: route.querystring,
        response: { 200: route.response, 304: NOT_MODIFIED, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request, reply) => {
      try {
        const page = await route.list(typed.db, request.ctx, request.query as z.output<Q>, readOptions(request));
        const etag = etagOfPage(page as object);
        if (etag) reply.header('etag', etag);
        return page;
      } catch (error) {
        if (!(error instanceof NotModified)) throw error;
        return reply.status(304).header('etag', error.etag).send(null);
      }
    },
  );
}

/** An export's file: not serialized (a stream), declared for the OpenAPI document. */
export const EXPORTED_FILE = z.string().meta({ format: 'binary' }).describe('Le fichier CSV ou XLSX.');

/** A 304 has no body: the client keeps the page it holds. */
const NOT_MODIFIED = z.null().describe('La page est inchangée depuis celle que le client détient (If-None-Match) : pas de corps.');

type Service<I extends Schema, P extends Schema, Q extends Schema, C extends Schema, U extends Schema, A extends Schema> = {
  list: (db: Database, ctx: AuthContext, query: z.output<Q>, options: ReadOptions) => Promise<z.input<P>>;
  getOne: (db: Database, ctx: AuthContext, uuid: string) => Promise<z.input<I>>;
  /** `origin`: where the request came from (the links of an e-mail the change sends, without PUBLIC_URL). */
  create: (db: Database, ctx: AuthContext, body: z.output<C>, origin: string) => Promise<z.input<I>>;
  update: (db: Database, ctx: AuthContext, uuid: string, body: z.output<U>, origin: string) => Promise<z.input<I>>;
  archive: (db: Database, ctx: AuthContext, uuid: string, query: z.output<A>) => Promise<z.input<I>>;
  restore: (db: Database, ctx: AuthContext, uuid: string) => Promise<z.input<I>>;
  /** `storage`: the app's, for what the record's deletion takes along (its documents' files). */
  hardDelete: (db: Database, ctx: AuthContext, uuid: string, storage: ObjectStorage) => Promise<void>;
  /** The list's view as a file: needed with `export`. */
  exportFile?: (db: Database, ctx: AuthContext, query: never) => Promise<ExportedFile>;
};

/** A route's own error statuses besides the ones every route of its kind answers. */
type Extra = { summary: string; errors?: readonly number[] };

export type RegisterRoutes<I extends Schema, P extends Schema, Q extends Schema, C extends Schema, U extends Schema, A extends Schema, CQ extends Schema, CP extends Schema> = {
  /** '/driver': the list is GET /driver, one record GET /driver/:uuid, and so on. */
  path: string;
  tags: string[];
  /** One record as the API answers it. */
  item: I;
  service: Service<I, P, Q, C, U, A>;
  list: { summary: string; querystring: Q; response: P };
  /**
   * GET `path`/export?format=csv|xlsx&<the list's parameters>: the list's view as a file (the
   * list declares its `exports`). `querystring`: the contract's exportQuerySchema(list query).
   */
  export?: { summary: string; querystring: Schema };
  /** GET `path`/choices: the records a form offers, light (a claim's vehicle or driver). */
  choices?: Omit<ListRouteConfig<CQ, CP>, 'tags'>;
  /** `id` for a route spelled /sinister/:id in the SPEC. */
  getOne: Extra & { param?: 'uuid' | 'id' };
  create: Extra & { body: C };
  update: Extra & { body: U };
  archive: Extra & { querystring?: A };
  restore: Extra;
  hardDelete: Extra;
};

/**
 * The shared routes of a register, declared once (docs/adding-a-register.md): list, one record,
 * create (201), update, archive (soft delete), restore and permanent deletion (204, administrators).
 * Other routes of the register (a bulk change, a draft) are declared next to it as usual.
 */
export function registerRoutes<
  I extends Schema,
  P extends Schema,
  Q extends Schema,
  C extends Schema,
  U extends Schema,
  A extends Schema,
  CQ extends Schema = Schema,
  CP extends Schema = Schema,
>(app: App, routes: RegisterRoutes<I, P, Q, C, U, A, CQ, CP>) {
  const typed = app as unknown as FastifyInstance;
  const { path, tags, item, service } = routes;
  const db = () => typed.db;
  const uuidOf = (request: FastifyRequest) => (request.params as { uuid: string }).uuid;
  const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  const schema = (extra: Extra, statuses: readonly number[], more: Record<string, unknown> = {}) => ({
    tags,
    summary: extra.summary,
    ...more,
    // 403: every register route needs a current organization (requireOrganization).
    response: { ...(more.response as object), ...errorResponses(...[...new Set([...statuses, 403, 503, ...(extra.errors ?? [])])].sort((a, b) => a - b)) },
  });

  listRoute(app, path, { tags, ...routes.list, list: service.list });
  // Before `path`/:uuid, which would otherwise take 'choices' or 'export' for an id.
  if (routes.choices) listRoute(app, `${path}/choices`, { tags, ...routes.choices });
  if (routes.export) {
    const exportFile = service.exportFile;
    if (!exportFile) throw new Error(`${path}: an export needs the service's exportFile (registerService)`);
    typed.get(
      `${path}/export`,
      {
        config: { access: MEMBERS },
        schema: {
          tags,
          summary: routes.export.summary,
          description: 'CSV (UTF-8 avec BOM, « ; », dates jj/mm/aaaa, montants 1 234,56) ou XLSX (cellules typées, en-tête figé, filtres). Toutes les lignes de la vue, triées comme la liste ; page et limit sont ignorés.',
          querystring: routes.export.querystring,
          response: { 200: EXPORTED_FILE, ...errorResponses(400, 401, 403, 503) },
        },
      },
      async (request, reply) => sendExportedFile(reply, await exportFile(db(), request.ctx, request.query as never)),
    );
  }

  const byId = routes.getOne.param === 'id';
  typed.get(
    `${path}/:${byId ? 'id' : 'uuid'}`,
    { config: { access: MEMBERS }, schema: schema(routes.getOne, [400, 401, 404], { params: byId ? IdParamsSchema : UuidParamsSchema, response: { 200: item } }) },
    (request) => service.getOne(db(), request.ctx, byId ? (request.params as { id: string }).id : uuidOf(request)),
  );

  typed.post(path, { config: { access: MEMBERS }, schema: schema(routes.create, [400, 401], { body: routes.create.body, response: { 201: item } }) }, async (request, reply) =>
    reply.status(201).send(await service.create(db(), request.ctx, request.body as z.output<C>, originOf(request))),
  );

  typed.patch(
    `${path}/:uuid`,
    { config: { access: MEMBERS }, schema: schema(routes.update, [400, 401, 404], { params: UuidParamsSchema, body: routes.update.body, response: { 200: item } }) },
    (request) => service.update(db(), request.ctx, uuidOf(request), request.body as z.output<U>, originOf(request)),
  );

  typed.delete(
    `${path}/:uuid`,
    {
      config: { access: MEMBERS },
      schema: schema(routes.archive, [400, 401, 404], {
        params: UuidParamsSchema,
        ...(routes.archive.querystring ? { querystring: routes.archive.querystring } : {}),
        response: { 200: item },
      }),
    },
    (request) => service.archive(db(), request.ctx, uuidOf(request), (request.query ?? {}) as z.output<A>),
  );

  typed.delete(
    `${path}/:uuid/hard`,
    { config: { access: { roles: ADMINS, scope: 'organization' } }, schema: schema(routes.hardDelete, [400, 401, 403, 404], { params: UuidParamsSchema, response: { 204: z.null() } }) },
    async (request, reply) => {
      await service.hardDelete(db(), request.ctx, uuidOf(request), app.storage);
      return reply.status(204).send(null);
    },
  );

  typed.post(
    `${path}/restore/:uuid`,
    { config: { access: MEMBERS }, schema: schema(routes.restore, [400, 401, 404], { params: UuidParamsSchema, response: { 200: item } }) },
    (request) => service.restore(db(), request.ctx, uuidOf(request)),
  );
}
