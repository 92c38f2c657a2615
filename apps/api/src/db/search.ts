import { asc, type Column, type Placeholder, type SQL, sql } from 'drizzle-orm';

/** A search term as an ILIKE/LIKE "contains" pattern, its wildcards escaped so '%' and '_' match themselves. */
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
 * The distinct "contains" patterns of a register search: each spelling of the term (as typed,
 * and e.g. a plate without its separators) once, lower-cased. Several patterns are alternatives.
 */
export function searchPatterns(...terms: string[]): string[] {
  return [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))].map(likePattern);
}

/**
 * A register search: `column` is the generated search_text (lower-cased, unaccented) and each
 * pattern is folded the same way on the constant side, so a plain LIKE (no per-row case folding)
 * compares them and the trigram index serves it even under row-level security (decisions 004,
 * 006). Patterns are values or placeholders of a prepared statement.
 */
export function searchTextMatches(column: SQL | Column, patterns: readonly (string | SQL | Placeholder)[]): SQL {
  // The folding as a scalar subquery: evaluated once per statement, not per row, when the pattern is a parameter of a generic plan.
  const conditions = patterns.map((pattern) => sql`${column} like (select lower(f_unaccent(${pattern}::text)))`);
  return conditions.length === 1 ? conditions[0]! : sql`(${sql.join(conditions, sql` or `)})`;
}
