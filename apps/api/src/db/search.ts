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

/**
 * A register search: `column` is the generated search_text (lower-cased, unaccented), the terms
 * are folded the same way on the constant side, so the trigram index serves the condition even
 * under row-level security (decision 004). Several terms are alternatives (OR).
 */
export function searchTextMatches(column: SQL | Column, ...terms: string[]): SQL {
  const conditions = [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))].map((term) => sql`${column} ilike f_unaccent(${likePattern(term)})`);
  return conditions.length === 1 ? conditions[0]! : sql`(${sql.join(conditions, sql` or `)})`;
}
