import type { ArchiveCountsSchema, pageSchema } from '@flotte/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, apiHeld, type ApiOptions, type Held } from './api-client';
import { invalidateAfterWrite, queryKeys, type RegisterName } from './query-keys';

/** What every register record of the contract has. */
export type RegisterRecord = { uuid: string; isArchived: boolean };

/**
 * One page of a register as the contract's pageSchema() shapes it; the archivable registers add
 * ArchiveCountsSchema's counts (the claims have none).
 */
export type RegisterPage<TRecord> = z.output<ReturnType<typeof pageSchema<z.ZodType<TRecord>>>> &
  Partial<z.output<typeof ArchiveCountsSchema>> & {
    /** The list's declared sums over every record the query matches (the claims' total cost). */
    sums?: Readonly<Record<string, number>>;
  };

/**
 * The contract's schemas of a register: its record, its page, its list query and its write bodies.
 * They give the register's types; at run time they serve in development and tests only, to check
 * the answers (decision 015).
 */
export type RegisterSchemas = {
  record: z.ZodType<RegisterRecord>;
  page: z.ZodType<RegisterPage<RegisterRecord>>;
  /** The GET list's query schema: only its input type is used here (the API validates). */
  list: z.ZodType<unknown, object>;
  create: z.ZodType;
  update: z.ZodType;
  /** DELETE's query schema, for a register whose archive takes parameters (the vehicles' exit date). */
  archive?: z.ZodType<unknown, object>;
};

export type RegisterDeclaration<S extends RegisterSchemas> = {
  /** Its pages carry `nbInActivity` and `nbOfArchived` (ArchiveCountsSchema; the claims' do not). */
  archiveCounts: boolean;
  /**
   * `import.meta.env.DEV ? { record: XxxSchema, … } : undefined`: the types come from the schemas,
   * and the production build drops them, and zod with them. The server has validated every answer
   * against the same schemas before sending it.
   */
  schemas: S | undefined;
};

type QueryParams = NonNullable<ApiOptions<unknown>['query']>;

/** What a query holding an answer with its ETag shows: the answer. */
export function heldData<T>(held: Held<T>): T {
  return held.data;
}

/**
 * A register's fetchers, queryOptions and mutation hooks, from its path and its contract schemas.
 * Every write invalidates what it affects (lib/query-keys.ts); answers are typed by the contract
 * (and checked by it in development), so a feature's api file is one declaration:
 *
 * ```ts
 * export const driversApi = registerApi('drivers', '/api/driver', {
 *   archiveCounts: true,
 *   schemas: import.meta.env.DEV ? { record: DriverSchema, page: DriverPageSchema, ... } : undefined,
 * });
 * const page = driversApi.useList(list.apiQuery);
 * ```
 */
export function registerApi<S extends RegisterSchemas>(register: RegisterName, path: `/api/${string}`, { archiveCounts, schemas }: RegisterDeclaration<S>) {
  type TRecord = z.output<S['record']>;
  type Page = z.output<S['page']> & RegisterPage<TRecord>;
  /** The list query as the contract takes it: page, limit, search, sortBy, archive flags, filters. */
  type ListQuery = z.input<S['list']>;
  type ArchiveQuery = S['archive'] extends z.ZodType ? z.input<S['archive']> : never;

  const keys = queryKeys[register];
  const record = schemas?.record as z.ZodType<TRecord> | undefined;
  const page = schemas?.page as z.ZodType<Page> | undefined;

  /** One page; with the page already held for this query, its ETag is sent and a 304 keeps it. */
  function getPage(query: ListQuery, signal?: AbortSignal, held?: Held<Page>): Promise<Held<Page>> {
    return apiHeld(path, { query: query as QueryParams, schema: page, signal, held });
  }

  function useWrite<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
    const queryClient = useQueryClient();
    return useMutation({ mutationFn, onSuccess: () => invalidateAfterWrite(queryClient, register) });
  }

  const listQueryOptions = (query: ListQuery) =>
    queryOptions({
      queryKey: keys.list(query),
      // The cache holds the page with its ETag (lib/api-client.ts apiHeld); screens see the page.
      queryFn: ({ signal, client, queryKey }) => getPage(query, signal, client.getQueryData<Held<Page>>(queryKey)),
      select: heldData<Page>,
      // The current page stays on screen while the next one loads: no flash of an empty table.
      placeholderData: keepPreviousData,
    });

  return {
    register,
    keys,
    /** The pages carry `nbInActivity` and `nbOfArchived` (the claims' do not): 'Actifs (38)'. */
    archiveCounts,
    getPage,
    listQueryOptions,
    /** One page for the register's screen, keyed on its URL state. */
    useList: (query: ListQuery) => useQuery(listQueryOptions(query)),
    /** How many records match `query` (one row fetched): `{ total, capped }`. */
    countQueryOptions: (query: ListQuery) =>
      queryOptions({
        queryKey: keys.count(query),
        queryFn: ({ signal, client, queryKey }) => getPage({ ...query, page: 1, limit: 1 }, signal, client.getQueryData<Held<Page>>(queryKey)),
        select: ({ data: answer }: Held<Page>) => ({ total: answer.total, capped: answer.totalIsCapped === true, sums: answer.sums ?? {} }),
      }),
    detailQueryOptions: (uuid: string) =>
      queryOptions({ queryKey: keys.detail(uuid), queryFn: ({ signal }) => api(`${path}/${uuid}`, { schema: record, signal }) }),
    useCreate: () => useWrite((body: z.output<S['create']>) => api(path, { method: 'POST', body, schema: record })),
    useUpdate: () =>
      useWrite(({ uuid, body }: { uuid: string; body: z.output<S['update']> }) =>
        api(`${path}/${uuid}`, { method: 'PATCH', body, schema: record }),
      ),
    /** Soft delete: DELETE answers the archived record. */
    useArchive: () =>
      useWrite(({ uuid, query }: { uuid: string; query?: ArchiveQuery }) =>
        api(`${path}/${uuid}`, { method: 'DELETE', query: query as QueryParams | undefined, schema: record }),
      ),
    useRestore: () => useWrite((uuid: string) => api(`${path}/restore/${uuid}`, { method: 'POST', schema: record })),
    /** Permanent deletion (204), for administrators only: the API answers 403 to anyone else. */
    useDelete: () => useWrite((uuid: string) => api(`${path}/${uuid}/hard`, { method: 'DELETE' })),
  };
}

export type RegisterApi<S extends RegisterSchemas> = ReturnType<typeof registerApi<S>>;
