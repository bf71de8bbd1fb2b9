import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error.js';
import { abandonBody } from './hardening.middleware.js';
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
 *   since the parser cannot tell where the next request would start;
 * - a request that does not arrive within the headers or request timeout (Node: a bare 408, a status
 *   the contract does not have) is refused the same way; a connection that never sent a byte is
 *   closed without an answer;
 * - a request whose client ends its side of the connection (FIN) before the request is complete (its
 *   line, headers or body cut short: Node's parser reports HPE_INVALID_EOF_STATE) is no invalid HTTP
 *   but a client gone away: it is charged nothing and answered nothing (before, it was a 400 charged
 *   to the address: 65 of them left a valid key from that address refused 429 for a minute).
 * Requests pipelined before the refused one are answered first, in order (HTTP/1.1 pairs responses
 * with requests by their order): the 400 waits until their responses are written. When the fault is
 * in the body of a request already handed to Express (it stopped arriving, or a chunk is malformed),
 * that request itself is answered with the 400 (see `abandonBody`), and the connection closes.
 */
export function answerRequestsNodeWouldRefuse(
  server: Server,
  charge: (remoteAddress: string | undefined) => Promise<ConnectionCharge>,
): void {
  // The `requireHostHeader` option of http.createServer, which Node reads from the server per request.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  const requests = new ConnectionRequests(server);
  // Connections already being refused: Node's parser reports the same fault again for every later chunk.
  const refusing = new WeakSet<Duplex>();
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => writeEnvelope(socket, ApiError.notFound(), {}));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (refusing.has(socket)) return;
    refusing.add(socket);
    if (error.code === CLIENT_ENDED_MID_REQUEST) {
      // The client ended its side (FIN) before its request was complete: it has gone away, which is no
      // invalid HTTP. Nothing is charged and nothing is answered; the complete requests before the cut
      // one are (the client may still read), then the connection closes.
      const latest = requests.latest(socket);
      const cut = latest !== undefined && !latest.complete;
      // A request already handed over whose body was cut waits for it no longer, unanswered: it ends
      // with the connection.
      if (cut) abandonBody(latest, null);
      void requests.answered(socket, cut ? 1 : 0).then(() => closeSoon(socket));
      return;
    }
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const latest = requests.latest(socket);
    if (latest !== undefined && !latest.complete) {
      // The fault is in the body of a request Express already has: that request answers it.
      abandonBody(latest, ApiError.incompleteBody(timedOut ? BODY_TIMED_OUT : NOT_HTTP));
      void requests.answered(socket).then(() => closeSoon(socket));
      return;
    }
    if (timedOut && latest === undefined && (socket as Socket).bytesRead === 0) {
      socket.destroy();
      return;
    }
    const refused = ApiError.malformed(timedOut ? HEAD_TIMED_OUT : NOT_HTTP);
    const answer = charge((socket as Socket).remoteAddress).then(
      ({ headers, retryAfterSeconds }) => ({
        error: retryAfterSeconds === null ? refused : ApiError.rateLimited(retryAfterSeconds),
        headers,
      }),
      () => ({ error: refused, headers: {} }),
    );
    void Promise.all([answer, requests.answered(socket)]).then(([{ error, headers }]) =>
      writeEnvelope(socket, error, headers),
    );
  });
}

/**
 * What Node's parser reports when the connection's read side ends (the client's FIN) in the middle of
 * a request: its request line, its headers or its body cut short (the same code on Node 20 and 26).
 * A request line or headers with invalid bytes are refused for those bytes before the end is seen.
 */
const CLIENT_ENDED_MID_REQUEST = 'HPE_INVALID_EOF_STATE';

const NOT_HTTP = 'The request is not valid HTTP (for example a URL with characters that are not percent-encoded).';
const HEAD_TIMED_OUT = 'The request did not arrive in time: its line and headers stopped coming.';
const BODY_TIMED_OUT = 'The request did not arrive in time: its body stopped coming.';

/** A connection's requests: the latest Node handed over, and how many answers are not finished yet. */
interface ConnectionState {
  latest: IncomingMessage;
  unfinished: number;
  /** Called once `unfinished` is down to `waitingFor`. */
  waiting: (() => void) | undefined;
  waitingFor: number;
}

// Kept on the socket and the response themselves (symbol keys), and one shared 'close' listener: a
// WeakMap lookup, a Set and two `once` closures per request cost about 1.5 µs on Node 26.
const CONNECTION = Symbol('connection-requests');
const COUNTED = Symbol('connection-requests-counted');
type Tracked<T> = T & { [CONNECTION]?: ConnectionState; [COUNTED]?: ConnectionState };

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket as Tracked<Duplex>;
  let state = socket[CONNECTION];
  if (state === undefined) {
    state = { latest: req, unfinished: 0, waiting: undefined, waitingFor: 0 };
    socket[CONNECTION] = state;
  } else state.latest = req;
  state.unfinished++;
  (res as Tracked<ServerResponse>)[COUNTED] = state;
  res.on('close', onResponseClose);
}

/**
 * Node emits a response's 'close' once, after 'finish' (by then it has handed the connection on) or
 * when the connection goes first.
 */
function onResponseClose(this: Tracked<ServerResponse>): void {
  const state = this[COUNTED];
  if (state === undefined) return;
  this[COUNTED] = undefined;
  if (--state.unfinished > state.waitingFor) return;
  const wake = state.waiting;
  state.waiting = undefined;
  wake?.();
}

/**
 * Per connection: the responses not finished yet (pipelined requests are answered one after another,
 * in order) and the latest request Node handed over.
 */
class ConnectionRequests {
  constructor(server: Server) {
    // Before Express, which answers in its own 'request' listener.
    server.prependListener('request', onRequest);
  }

  latest(socket: Duplex): IncomingMessage | undefined {
    return (socket as Tracked<Duplex>)[CONNECTION]?.latest;
  }

  /**
   * Resolves once every response on the connection so far is written (or abandoned with it), but the
   * last `unanswered` (a request that will not be answered: it ends with the connection).
   */
  answered(socket: Duplex, unanswered = 0): Promise<void> {
    const state = (socket as Tracked<Duplex>)[CONNECTION];
    if (state === undefined || state.unfinished <= unanswered) return Promise.resolve();
    return new Promise((resolve) => {
      // One wait per connection: a connection's first fault is the only one answered (`refusing`).
      state.waitingFor = unanswered;
      state.waiting = resolve;
    });
  }
}

/** How long a refused connection is kept for the client to read the answer and close its side. */
const LINGER_MS = 2000;

/**
 * Ends the connection, and closes it if the client has not closed its side soon after: a client that
 * never does would otherwise hold it half-open.
 */
function closeSoon(socket: Duplex, last?: string): void {
  socket.end(last);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
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
  closeSoon(socket, `${lines.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * How many Host headers a request has. Node keeps the first of several in `req.headers`, so two are
 * seen only here; RFC 9112 (section 3.2) has a server refuse them, since a proxy before it may have
 * routed by the other one.
 */
function hostHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') count++;
  return count;
}

/**
 * One host and an optional port (RFC 9110, section 7.2: uri-host [ ":" port ]). A comma is refused
 * although a reg-name may hold one: it is what a proxy writes when it joins two Host fields.
 */
const ONE_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+;=%-]*)(?::[0-9]*)?$/;

/** What Node itself takes for a 100-continue expectation (and answers with 100 Continue). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * The requests that `answerRequestsNodeWouldRefuse` lets through to Express, and those with more than
 * one Host header, refused here with the envelope (after the rate limit, so that /v1 ones carry its
 * headers).
 */
export function refuseMalformedRequests(req: Request, _res: Response, next: NextFunction): void {
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    next(ApiError.malformed('An HTTP/1.1 request needs a Host header.'));
    return;
  }
  if (hostHeaders(req.rawHeaders) > 1) {
    next(ApiError.malformed('A request may have only one Host header.'));
    return;
  }
  if (req.headers.host !== undefined && !ONE_HOST.test(req.headers.host)) {
    next(ApiError.malformed('The Host header must name one host, with an optional port.'));
    return;
  }
  const expectation = req.headers.expect;
  if (expectation !== undefined && !CONTINUE.test(expectation)) {
    next(ApiError.malformed('The Expect header names an expectation this service cannot meet (only 100-continue).'));
    return;
  }
  next();
}
