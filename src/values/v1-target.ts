/**
 * Whether a request target is for /v1, read off its raw text where that is safe: shared by the request
 * gate (before Express) and the middleware that spend a budget and mark answers (src/http).
 */

/** `/v1`, `/v1/…` or `/v1?…`, read off the raw URL (Express's `req.path` parses the URL per request). */
export const isV1 = (url: string): boolean =>
  url.startsWith('/v1') && (url.length === 3 || url[3] === '/' || url[3] === '?');

/**
 * A target Express routes as it is written: an origin-form path of URI characters only (RFC 3986's
 * pchar and `/`) up to its query. Node's parser also lets through `\` and `#`, and a target with
 * either is routed by its path as `url.parse` reads it (`GET /v1\catalog\products#x` is the products
 * list): such a target is judged by that path, never by its raw text.
 */
const PLAIN_TARGET = /^\/[\w\-.~!$&'()*+,;=:@%/]*(?:\?|$)/;
export const isPlainTarget = (target: string): boolean => PLAIN_TARGET.test(target);

/**
 * Whether a request target is plainly not for /v1: a plainly written path elsewhere (a probe,
 * /metrics, /docs). For what reads the raw target before Express: anything else (an absolute-form
 * target, one with `\` or `#`) is not parsed here, so it is not plainly elsewhere.
 */
export const isOutsideV1 = (target: string): boolean => isPlainTarget(target) && !isV1(target);
