/** `%`, `_` and `\` are literal characters of the search, never wildcards. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export const MAX_SEARCH_TERMS = 10;

/** JavaScript's white space without the control characters (which no parameter may hold). */
const SPACE = '[ \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';
const TERM = '[^\\s\\u0000-\\u001f\\u007f]+';
/** `q` as a pattern (for the OpenAPI document): 1 to MAX_SEARCH_TERMS terms separated by white space. */
export const SEARCH_PATTERN_TEXT = `^${SPACE}*${TERM}(${SPACE}+${TERM}){0,${MAX_SEARCH_TERMS - 1}}${SPACE}*$`;

/** Splits `q` on white space into terms. */
export function searchTerms(q: string): string[] {
  return q.split(/\s+/u).filter((t) => t !== '');
}
