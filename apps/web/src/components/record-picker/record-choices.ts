import { CHOICES_LIMIT, type pageSchema } from '@flotte/contract';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiHeld, type Held } from '../../lib/api-client';
import { queryKeys, type RegisterName } from '../../lib/query-keys';
import { heldData } from '../../lib/register-api';

/** A record a form offers: light, with its uuid (`VehiculeChoiceSchema`, `DriverChoiceSchema`…). */
export type Choice = { uuid: string };

/** A page of choices as the contract's pageSchema() shapes it. */
export type ChoicePage<TChoice> = z.output<ReturnType<typeof pageSchema<z.ZodType<TChoice>>>>;

export type ChoicesDeclaration<TChoice extends Choice, TQuery extends z.ZodType<unknown, object>> = {
  /** The page of choices the endpoint answers (`VehiculeChoicePageSchema`). */
  page: z.ZodType<ChoicePage<TChoice>>;
  /** Its query schema (`ListVehiculeChoicesQuerySchema`): types `sortBy`. */
  query: TQuery;
  sortBy: NonNullable<z.input<TQuery> extends { sortBy?: infer S } ? S : never>;
};

/**
 * The records of a register another register's form picks from (a claim's vehicle, its driver):
 * the endpoint, its contract schemas and the register whose writes refresh them (their keys live
 * in lib/query-keys.ts under the register's `choices`). Handed to `FormRecordPicker`:
 *
 * ```ts
 * export const vehiculeChoices = recordChoices('vehicules', '/api/vehicule/choices', {
 *   page: VehiculeChoicePageSchema, query: ListVehiculeChoicesQuerySchema, sortBy: 'immatriculation',
 * });
 * ```
 */
export function recordChoices<TChoice extends Choice, TQuery extends z.ZodType<unknown, object>>(
  register: RegisterName,
  path: `/api/${string}`,
  declaration: ChoicesDeclaration<TChoice, TQuery>,
) {
  const { page, sortBy } = declaration;
  return {
    register,
    path,
    /** The first page holds this many; a register holding more is searched on the server. */
    limit: CHOICES_LIMIT,
    /** The first CHOICES_LIMIT choices (`search` empty), or those a search finds, with their ETag held. */
    queryOptions: (search: string) => {
      const query = { page: 1, limit: CHOICES_LIMIT, sortBy: sortBy as string, ...(search ? { search } : {}) };
      return queryOptions({
        queryKey: queryKeys[register].choices(query),
        queryFn: ({ signal, client, queryKey }) =>
          apiHeld(path, { query, schema: page, signal, held: client.getQueryData<Held<ChoicePage<TChoice>>>(queryKey) }),
        select: heldData<ChoicePage<TChoice>>,
      });
    },
  };
}

export type RecordChoices<TChoice extends Choice> = {
  register: RegisterName;
  path: string;
  limit: number;
  queryOptions: ReturnType<typeof recordChoices<TChoice, z.ZodType<unknown, object>>>['queryOptions'];
};
