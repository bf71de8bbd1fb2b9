import type { Request, Response } from 'express';
import { sendJson } from '../http/send-json.js';
import { queryName } from '../params/query-string.js';
import type { ListedPage } from './list-engine.js';

export const SYNC_POSITION_HEADER = 'Sync-Position';

/**
 * The URL of the request's list without `page` and `cursor`: its path, and every other parameter as
 * the client wrote it (they are valid, or the request would have been refused). Always relative: the
 * path is taken from the parsed target, so an absolute-form target (`GET https://evil.example/v1/…
 * HTTP/1.1`, which Node.js passes on as it came) lends the Link neither its scheme nor its host.
 * A parameter is known by its decoded name (`p%61ge` is `page`, as the query parser reads it), and a
 * character that may not stand in a URI (`<`, `>`, `"`, which Node.js lets through in a target) is
 * percent-encoded, so that the URL cannot end the Link's `<…>` early.
 */
export function listUrl(originalUrl: string, path: string): { path: string; params: string[] } {
  const q = originalUrl.indexOf('?');
  const params = q === -1 ? [] : originalUrl.slice(q + 1).split('&');
  const kept = params.filter((p) => {
    const name = queryName(p.split('=')[0]);
    return p !== '' && name !== 'page' && name !== 'cursor';
  });
  return { path, params: kept.map((p) => p.replace(NOT_IN_URI, (c) => encodeURIComponent(c))) };
}

/** What RFC 3986 does not allow in a URI's query (a `%` is left as the client's escape). */
const NOT_IN_URI = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g;

/**
 * Sends a page of a walk: its body, RFC 8288 `Link` with `rel="next"` (while a next page exists) and
 * `rel="first"`, as URLs relative to this server, and `Sync-Position` on a sync walk.
 */
export function sendListPage(req: Request, res: Response, page: ListedPage): void {
  const { path, params } = listUrl(req.originalUrl, req.path);
  const url = (extra: string[]): string =>
    params.length + extra.length === 0 ? path : `${path}?${[...params, ...extra].join('&')}`;
  const links = [`<${url([])}>; rel="first"`];
  if (page.nextCursor !== null) links.unshift(`<${url([`cursor=${page.nextCursor}`])}>; rel="next"`);
  res.setHeader('Link', links.join(', '));
  if (page.syncPosition !== null) res.setHeader(SYNC_POSITION_HEADER, page.syncPosition);
  sendJson(res, page.body);
}
