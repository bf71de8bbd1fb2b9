/** `%`, `_` and `\` are literal characters of the search, never wildcards. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export const MAX_SEARCH_TERMS = 10;

/** Splits `q` on white space into terms. */
export function searchTerms(q: string): string[] {
  return q.split(/\s+/u).filter((t) => t !== '');
}
