import { asc, type Column, type Placeholder, type SQL, sql } from 'drizzle-orm';

/**
 * The LIKE "contains" pattern of a term folded as the search text is (lower case, unaccented):
 * '%' || term || '%', its '%', '_' and '\\' escaped so that they match themselves. Escaped after
 * folding: unaccent turns a full-width ％ into '%', which must then be a character too. A scalar
 * subquery, so that a generic plan folds the term once per statement, not once per row.
 */
export function foldedContains(term: SQL | Placeholder | string): SQL {
  return sql`(select '%' || replace(replace(replace(lower(f_unaccent(${term}::text)), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`;
}

/** Accent- and case-insensitive "contains" (f_unaccent is the indexable wrapper of migration 0002). */
export function containsFolded(expression: SQL | Column, search: string): SQL {
  return sql`lower(f_unaccent(${expression})) like ${foldedContains(search)}`;
}

/** French reading order: 'Étoile' sorts with the E, not after Z as byte order would. */
export function frenchOrder(expression: SQL | Column): SQL {
  return asc(sql`lower(f_unaccent(${expression}))`);
}

/**
 * The distinct spellings of a register search's term (as typed, and e.g. a plate without its
 * separators), each once, lower-cased; searchTextMatches folds and escapes them. Alternatives.
 */
export function searchPatterns(...terms: string[]): string[] {
  return [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
}

/**
 * A register search: `column` is the generated search_text (lower-cased, unaccented) and each
 * pattern is folded the same way on the constant side, so a plain LIKE (no per-row case folding)
 * compares them and the trigram index serves it even under row-level security (decisions 004,
 * 006). Patterns are values or placeholders of a prepared statement.
 */
export function searchTextMatches(column: SQL | Column, patterns: readonly (string | SQL | Placeholder)[]): SQL {
  const conditions = patterns.map((pattern) => sql`${column} like ${foldedContains(pattern)}`);
  return conditions.length === 1 ? conditions[0]! : sql`(${sql.join(conditions, sql` or `)})`;
}
