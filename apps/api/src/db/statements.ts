/**
 * Named prepared statements for the hot reads (decision 006).
 *
 * A list query's SQL depends on its *shape* (which filters are present, the sort, the archive
 * mode), never on the values, which travel as placeholders. Built once per shape and database,
 * it is sent under a stable name: PostgreSQL parses it once per connection and reuses its plan,
 * and Node no longer rebuilds the SQL on every request. The builder receives the shape only, so
 * nothing outside it can change the SQL behind a name.
 */

import { Column, is, SQL, Subquery } from 'drizzle-orm';
import { rememberStatementName, runAsFamily } from './statement-timing.js';

type Preparable<P> = { prepare(name: string): P };

/**
 * Executing the statement tells the driver's timing its family (`vehicules_list`, the metrics'
 * label: decision 045) — the family, not the numbered name, which follows the order shapes were
 * first met and so differs between processes. A stand-in without execute is left as is.
 */
function labelled<P>(statement: P, family: string): P {
  const execute = (statement as { execute?: (...args: unknown[]) => Promise<unknown> }).execute;
  if (typeof execute !== 'function') return statement;
  (statement as { execute: (...args: unknown[]) => Promise<unknown> }).execute = (...args) => runAsFamily(family, () => execute.apply(statement, args));
  return statement;
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };
type SelectedField = { path: string[]; field: unknown };
type Mappable = { fields?: SelectedField[]; customResultMapper?: (rows: unknown[][]) => unknown };

/** The decoder Drizzle's mapResultRow picks for a selected field (drizzle-orm/utils.js). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

/**
 * A prepared statement's rows turned into objects by decoders found once, when it is prepared:
 * Drizzle finds each column's decoder again for every row (a prototype walk per column and row,
 * ≈ 4 % of the server's CPU on a page computed afresh, docs/performance.md). The same objects as
 * Drizzle's own mapping for a flat selection (every field at the top level, which is where its
 * left joins' nulling never applies); any other selection keeps Drizzle's.
 */
export function compileRowMapper(statement: unknown) {
  const mappable = statement as Mappable;
  const fields = mappable.fields;
  if (!Array.isArray(fields) || mappable.customResultMapper || !fields.every(({ path }) => path.length === 1)) return;
  const keys = fields.map(({ path }) => path[0]!);
  const decoders = fields.map(({ field }) => decoderOf(field));
  mappable.customResultMapper = (rows) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const raw = row[i];
        result[keys[i]!] = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
      }
      return result;
    });
}

/** Statement names by family and shape, for the life of the process (the SQL behind a name never changes). */
const names = new Map<string, string>();
/** Past this many shapes, new ones run unnamed: a client cannot grow every connection's statement cache without bound. */
const MAX_NAMED = 500;
const byDatabase = new WeakMap<object, Map<string, unknown>>();

export function prepared<S extends Record<string, string | number | boolean>, P>(
  database: object,
  family: string,
  shape: S,
  build: (shape: S) => Preparable<P>,
): P {
  const key = `${family}:${JSON.stringify(shape)}`;
  let statements = byDatabase.get(database);
  if (!statements) {
    statements = new Map();
    byDatabase.set(database, statements);
  }
  const known = statements.get(key);
  if (known) return known as P;
  const prepare = (statementName: string) => {
    const statement = labelled(build(shape).prepare(statementName), family);
    compileRowMapper(statement);
    return statement;
  };
  let name = names.get(key);
  if (!name) {
    if (names.size >= MAX_NAMED) return prepare('');
    name = `${family}_${names.size + 1}`;
    names.set(key, name);
  }
  const statement = prepare(name);
  // Drizzle's prepared query tells its SQL: PGlite's timings find the statement's name by it.
  const text = (statement as { getQuery?: () => { sql?: unknown } }).getQuery?.().sql;
  if (typeof text === 'string') rememberStatementName(text, name);
  statements.set(key, statement);
  return statement;
}
