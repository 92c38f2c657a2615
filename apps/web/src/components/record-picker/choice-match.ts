/** Lower case, without accents: 'Écuyer' and 'ecuyer' read alike, as the API's search folds them. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Without spaces, dashes and dots: a plate typed 'ab 123', 'AB-123' or 'ab123' reads alike. */
function compact(text: string): string {
  return text.replace(/[\s\-.\u00a0\u202f]/g, '');
}

/**
 * Whether a choice's text holds what the person typed, in the browser (a register small enough
 * to be held whole): case and accents ignored, a plate in any spelling — the server's rules.
 */
export function choiceMatches(text: string, term: string): boolean {
  const wanted = foldText(term.trim());
  if (wanted === '') return true;
  const folded = foldText(text);
  return folded.includes(wanted) || compact(folded).includes(compact(wanted));
}
