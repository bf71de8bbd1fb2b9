import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error.js';
import { generateRequestId, REQUEST_ID_HEADER } from './request-id.middleware.js';

/** What a request that never reached Express spent from its connection's budget. */
export interface ConnectionCharge {
  /** The rate-limit headers to send. */
  headers: Record<string, string>;
  /** Set when the budget is spent: the request is refused with 429 instead. */
  retryAfterSeconds: number | null;
}

/**
 * Some requests Node answers by itself, without the contract's envelope or a request id. Here each
 * gets the envelope:
 * - HTTP/1.1 without Host (Node: a bare 400) and an Expect other than 100-continue (Node: a bare
 *   417, a status the contract does not have) are let through to Express, where
 *   `refuseMalformedRequests` answers them after the rate limit, like any other request;
 * - CONNECT (Node: the connection closed without a byte) is a method other than GET and HEAD: 404;
 * - a request Node's parser refuses (a raw non-ASCII byte in the URL, a bad Content-Length, a
 *   malformed chunk) never reaches Express and cannot be read: neither its key nor its path is
 *   known, so it spends from the budget of its connection's address (`charge`), carries those
 *   rate-limit headers and is a 400 (429 once that budget is spent). The connection then closes,
 *   since the parser cannot tell where the next request would start.
 */
export function answerRequestsNodeWouldRefuse(
  server: Server,
  charge: (remoteAddress: string | undefined) => Promise<ConnectionCharge>,
): void {
  // The `requireHostHeader` option of http.createServer, which Node reads from the server per request.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => writeEnvelope(socket, ApiError.notFound(), {}));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refused = ApiError.malformed(
      'The request is not valid HTTP (for example a URL with characters that are not percent-encoded).',
    );
    charge((socket as Socket).remoteAddress).then(
      ({ headers, retryAfterSeconds }) =>
        writeEnvelope(socket, retryAfterSeconds === null ? refused : ApiError.rateLimited(retryAfterSeconds), headers),
      () => writeEnvelope(socket, refused, {}),
    );
  });
}

/** Answers an error on a raw connection with the envelope and a new request id, then closes it. */
function writeEnvelope(socket: Duplex, error: ApiError, headers: Record<string, string>): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = generateRequestId();
  const status = error.getStatus();
  const body = JSON.stringify({
    error: { code: error.code, message: error.message, details: error.details, requestId },
  });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `${REQUEST_ID_HEADER}: ${requestId}`,
    ...Object.entries({ ...headers, ...error.headers }).map(([name, value]) => `${name}: ${value}`),
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** What Node itself takes for a 100-continue expectation (and answers with 100 Continue). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * The requests that `answerRequestsNodeWouldRefuse` lets through to Express, refused here with the
 * envelope (after the rate limit, so that /v1 ones carry its headers).
 */
export function refuseMalformedRequests(req: Request, _res: Response, next: NextFunction): void {
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    next(ApiError.malformed('An HTTP/1.1 request needs a Host header.'));
    return;
  }
  const expectation = req.headers.expect;
  if (expectation !== undefined && !CONTINUE.test(expectation)) {
    next(ApiError.malformed('The Expect header names an expectation this service cannot meet (only 100-continue).'));
    return;
  }
  next();
}
