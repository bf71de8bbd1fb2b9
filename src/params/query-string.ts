import { parse, unescape } from 'node:querystring';

/**
 * A query value whose percent-escapes are not UTF-8 (`q=%FF`, `storeId=%C3%28`): the validation
 * refuses its parameter by name, where node:querystring would have made it a text with U+FFFD in it.
 */
export class NotUtf8Value {
  constructor(readonly raw: string) {}
}

/**
 * Whether a percent-encoded text decodes to bytes that are not UTF-8. A `%` that starts no escape
 * (`%zz`, a lone `%`) stays as it is, as node:querystring leaves it, and is not what is asked here.
 */
export function isNotUtf8(raw: string): boolean {
  if (!raw.includes('%')) return false;
  try {
    decodeURIComponent(raw.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    return false;
  } catch {
    return true;
  }
}

/** A parameter's name as node:querystring decodes it (`+` a space, `p%61ge` is `page`). */
export function queryName(raw: string): string {
  return unescape(raw.replaceAll('+', ' '));
}

/**
 * Express's "simple" query parser (node:querystring), except that a value that is not UTF-8 once
 * decoded becomes a NotUtf8Value. Its name is decoded as node:querystring decodes it: a name that is
 * not UTF-8 is no parameter of any operation, and refused as such.
 */
export function parseQueryString(text: string | null | undefined): Record<string, unknown> {
  // Express passes null for a URL without a query, which node:querystring reads as an empty one.
  const query = parse(text ?? '') as Record<string, unknown>;
  if (text == null || !text.includes('%')) return query;
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || !isNotUtf8(pair.slice(eq + 1))) continue;
    const name = queryName(pair.slice(0, eq));
    // A repeated parameter stays a list, refused for being repeated.
    if (typeof query[name] === 'string') query[name] = new NotUtf8Value(pair.slice(eq + 1));
  }
  return query;
}
