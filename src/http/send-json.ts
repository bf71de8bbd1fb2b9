import type { Response } from 'express';
import type { JsonText } from '../values/json-text.js';
import type { ResponseCompression } from './compression.js';

/** Where configureApp keeps the compression policy: on the application, read by every answer. */
export const COMPRESSION_LOCAL = 'responseCompression';

/**
 * Sends JSON text as it is, or coded as the client accepts (gzip, Brotli, zstd: see
 * ResponseCompression), in one write with the headers. Express's res.send would first copy a string
 * of 1,000 characters or more into a Buffer and write the two separately: for a page of rows that
 * copy and the extra write cost more than the rest of the framework (measured with --cpu-prof).
 * HEAD requests get the headers only (Node leaves the body out), the same headers as GET.
 */
export function sendJson(res: Response, body: JsonText): void {
  const compression = res.app.locals[COMPRESSION_LOCAL] as ResponseCompression | undefined;
  const length = Buffer.byteLength(body);
  if (compression !== undefined) {
    // Express's res.vary parses the header it extends: most answers have none yet.
    if (res.getHeader('Vary') === undefined) res.setHeader('Vary', 'Accept-Encoding');
    else res.vary('Accept-Encoding');
    const coded = compression.encode(res.req, body, length);
    if (coded !== null) {
      res.setHeader('Content-Encoding', coded.coding);
      res.setHeader('Content-Length', coded.bytes.length);
      res.end(coded.bytes);
      return;
    }
  }
  res.setHeader('Content-Length', length);
  res.end(body);
}
