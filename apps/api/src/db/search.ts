import { asc, type Column, type SQL, sql } from 'drizzle-orm';

/** A search term as an ILIKE pattern, its wildcards escaped so '%' and '_' match themselves. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Accent- and case-insensitive "contains" (f_unaccent is the indexable wrapper of migration 0002). */
export function containsFolded(expression: SQL | Column, search: string): SQL {
  return sql`f_unaccent(${expression}) ilike f_unaccent(${likePattern(search)})`;
}

/** French reading order: 'Étoile' sorts with the E, not after Z as byte order would. */
export function frenchOrder(expression: SQL | Column): SQL {
  return asc(sql`lower(f_unaccent(${expression}))`);
}
