import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { generateRequestId, REQUEST_ID_HEADER } from './request-id.middleware.js';

/**
 * Requests that Node's HTTP parser refuses (a raw non-ASCII byte in the URL, a bad Content-Length,
 * a malformed chunk) never reach Express; Node would answer a bare 400 with no body and no request
 * id. They get the contract's 400 envelope instead, then the connection closes, since the parser
 * cannot tell where the next request would start.
 */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = generateRequestId();
    const body = JSON.stringify({
      error: {
        code: 'validation_failed',
        message: 'The request is not valid HTTP (for example a URL with characters that are not percent-encoded).',
        details: { errors: [] },
        requestId,
      },
    });
    socket.end(
      'HTTP/1.1 400 Bad Request\r\n' +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
        'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  });
}
