import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isOutsideV1 } from '../values/v1-target.js';
import { type GateLimits, RequestGate, type Shed } from './request-gate.js';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
type Exchange = { req: IncomingMessage; res: ServerResponse; client: string };

/** Node's flag of a socket it stopped reading (src: lib/_http_server.js), and its parser. */
interface ServerSocket extends Socket {
  _paused: boolean;
  parser?: { resume(): void } | null;
}

/** Whether this bound stopped reading a connection (Node may have stopped it too, for its own reasons). */
interface Hold {
  holding: boolean;
  /** Whether `_paused` has been made to read true while this bound holds (`holdable`). */
  holdable: boolean;
}

/** Requests started shed (src/admission/request-gate.ts, `sweep`), with why. */
const shedRequests = new WeakMap<IncomingMessage, Shed>();

const GATED = Symbol('gate-connection');
const CLIENT = Symbol('gate-client');
const SHED = Symbol('gate-shed');
type GatedResponse = ServerResponse & { [GATED]?: ServerSocket; [CLIENT]?: string; [SHED]?: boolean };

/**
 * Whether the gate started `req` only to refuse it (it was held past `holdMs`): the application
 * answers it at once with the admission refusals' 429 or 503, before any work (the key lookup too).
 */
export function shedOf(req: IncomingMessage): Shed | undefined {
  return shedRequests.get(req);
}

/**
 * How often held requests are looked at for one held too long: a quarter of the bound (so none
 * waits more than a quarter longer than it), between 10 and 100 ms. One timer per server, none per
 * request, as SqlReader's watchdog.
 */
export function sweepIntervalMs(holdMs: number): number {
  return Math.min(100, Math.max(10, Math.ceil(holdMs / 4)));
}

/**
 * The client a request counts for before anything is spent on it: the API client of a key already
 * known valid (`knownClient`: the key cache, no lookup; every key of a client and every spelling of
 * `Bearer` is one client), else the connection's address: no key, a key not looked up yet or not
 * valid, any other credential. A credential costs nothing to invent, so it names no client of its
 * own: junk or random keys from one address share that address's place, however many there are.
 */
export function gateClientOf(
  req: IncomingMessage,
  knownClient: (req: IncomingMessage) => string | undefined = () => undefined,
): string {
  // Keys are read under /v1 only: elsewhere (a probe, /metrics, /docs) a request is counted by its
  // address, and a key it carries costs no digest and no cache lookup (docs/performance.md#keys-outside-v1).
  const client = req.headers.authorization === undefined || isOutsideV1(req.url ?? '') ? undefined : knownClient(req);
  return client === undefined ? `address ${req.socket.remoteAddress ?? ''}` : `client ${client}`;
}

/**
 * Bounds the requests in the application (docs/rate-limits.md#overload): at most `perConnection`
 * requests of one connection, `perClient` of one client and `total` of the process at once, decided
 * as each request is parsed, before Express, the key lookup, the rate limit or admission to a pool
 * spend anything on it (src/admission/request-gate.ts).
 *
 * Node hands every pipelined request of a connection to the application as soon as it is parsed, so
 * one client pipelining 100 requests on each of 200 connections had 20,000 in flight; and a client's
 * 200 connections each reading one request at a time had 200. Here, a request beyond a bound is
 * held and its connection's socket is no longer read until it starts (as nginx and other HTTP
 * servers do): the rest wait unread in the kernel's buffers and the client's, costing this process
 * nothing, and TCP flow control paces the sender at the rate its share is served. Requests already
 * parsed from the last read (at most one read's worth, 64 KiB) wait here, in order, up to
 * `heldPerConnection` and `heldTotal` (a connection beyond either is closed); an answer not written
 * within `sendTimeoutMs` of its start has its connection closed.
 *
 * A held request is started from `setImmediate`, never from the end of the request before it: an
 * answer that needs no I/O (a 429, a 404, a refusal of admission) ends within the same turn of the
 * event loop, and starting the next one there chained every held request of a flood (thousands,
 * seconds of CPU) ahead of the sockets waiting to be read, a polite client's among them. From
 * `setImmediate`, each turn of the loop reads every socket that has data, then starts what was freed.
 *
 * Node stops reading a socket itself when its responses are not being read (`_paused`), and resumes
 * it when they drain, or when a finished request's body is dumped; the flag is therefore made to
 * read true while either Node or this bound holds the connection, so that neither resumes it under
 * the other (Node's own guard, onSocketResume, pauses a socket again while `_paused` is true).
 *
 * A held request has a deadline of its own (`holdMs`, docs/rate-limits.md#overload): a timer looks a
 * few times a second for requests held longer that could be answered now (nothing of their
 * connection runs) and starts them shed (`shedOf`): the application answers them 429 or 503 at once,
 * so that a long overload is refused early rather than waited out. A shed request takes no place of
 * its client or the process (its answer does no work), only its connection's, keeping answers in order.
 */
export function boundRequests(
  server: Server,
  limits: GateLimits,
  clientOf: (req: IncomingMessage) => string = gateClientOf,
  sendTimeoutMs = Infinity,
): RequestGate<ServerSocket, Exchange> {
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const gate = new RequestGate<ServerSocket, Exchange>(limits);
  const holds = new WeakMap<Socket, Hold>();
  // Each running request's start: one whose answer is not written within `sendTimeoutMs` (its client
  // stopped reading it) has its connection closed, which frees its place (insertion order: the
  // oldest first).
  const runningSince = new Map<GatedResponse, number>();
  if (sendTimeoutMs !== Infinity) {
    const overdue = setInterval(
      () => {
        const since = Date.now() - sendTimeoutMs;
        for (const [res, started] of runningSince) {
          if (started > since) break;
          runningSince.delete(res);
          res[GATED]?.destroy();
        }
      },
      Math.min(1000, Math.max(50, Math.ceil(sendTimeoutMs / 4))),
    ).unref();
    server.once('close', () => clearInterval(overdue));
  }
  let startable: { connection: ServerSocket; request: Exchange }[] = [];
  let scheduled = false;

  // One 'close' listener for every response this gate runs (its connection and whether it was shed
  // kept on the response), not a closure and a `once` wrapper per request.
  function released(this: GatedResponse): void {
    const socket = this[GATED]!;
    if (sendTimeoutMs !== Infinity) runningSince.delete(this);
    const freed = gate.release(socket, this[CLIENT]!, this[SHED] === true);
    if (freed.length > 0) startable.push(...freed);
    if (!scheduled && startable.length > 0) {
      scheduled = true;
      setImmediate(startHeld);
    }
    resumeIfFree(socket);
  }

  const run = (socket: ServerSocket, { req, res, client }: Exchange, shed?: Shed): void => {
    if (shed !== undefined) shedRequests.set(req, shed);
    const gated = res as GatedResponse;
    gated[GATED] = socket;
    gated[CLIENT] = client;
    if (sendTimeoutMs !== Infinity) runningSince.set(gated, Date.now());
    gated[SHED] = shed !== undefined;
    res.on('close', released);
    for (const handler of handlers) handler.call(server, req, res);
  };

  const startHeld = (): void => {
    scheduled = false;
    const batch = startable;
    startable = [];
    for (const { connection, request } of batch) {
      // A connection that closed meanwhile: Node has aborted its requests; its place is freed.
      if (connection.destroyed) {
        gate.close(connection);
        startable.push(...gate.release(connection, request.client));
        continue;
      }
      run(connection, request);
      resumeIfFree(connection);
    }
    if (startable.length > 0 && !scheduled) {
      scheduled = true;
      setImmediate(startHeld);
    }
  };

  const resumeIfFree = (socket: ServerSocket): void => {
    const hold = holds.get(socket);
    if (hold === undefined || !hold.holding || gate.heldOn(socket) > 0) return;
    hold.holding = false;
    if (!socket._paused && !socket.destroyed) {
      socket.parser?.resume();
      socket.resume();
    }
  };

  if (limits.holdMs !== undefined && limits.holdMs !== Infinity) {
    const sweeper = setInterval(() => {
      for (const { connection, request, shed } of gate.sweep()) {
        // A connection that closed meanwhile: its request was aborted; the place on it is freed.
        if (connection.destroyed) {
          gate.close(connection);
          startable.push(...gate.release(connection, request.client, shed !== undefined));
          continue;
        }
        run(connection, request, shed);
        resumeIfFree(connection);
      }
      if (!scheduled && startable.length > 0) {
        scheduled = true;
        setImmediate(startHeld);
      }
    }, sweepIntervalMs(limits.holdMs)).unref();
    server.once('close', () => clearInterval(sweeper));
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as ServerSocket;
    let hold = holds.get(socket);
    if (hold === undefined) {
      hold = { holding: false, holdable: false };
      holds.set(socket, hold);
      socket.once('close', () => gate.close(socket));
    }
    const exchange = { req, res, client: clientOf(req) };
    if (gate.offer(socket, exchange.client, exchange)) run(socket, exchange);
    // More held than the bounds allow (a client pipelining hundreds of requests): the connection is
    // closed, its held requests dropped unanswered; what it already runs ends with it.
    else if (gate.overHeld(socket)) socket.destroy();
    // Only once a request is held: a connection with nothing held is still read, so that a client
    // that goes away is noticed (and its request's work ended) while its request runs.
    else if (!hold.holding) {
      if (!hold.holdable) holdable(socket, hold);
      hold.holding = true;
      socket.pause();
    }
  });
  return gate;
}

/**
 * Makes `_paused` true while this bound holds the connection, whatever Node sets it to. Only on a
 * connection about to be held, not on every one: Node's HTTP server reads `_paused` of every request's
 * socket, and a socket with an accessor in place of that field cost each of its requests about 19 µs
 * of CPU on Node 26 (`/health/live`, 131 against 112 µs per request, the median of four turns: the
 * field's reads no longer as cheap as a plain field's). A connection that was held keeps it.
 */
function holdable(socket: ServerSocket, hold: Hold): void {
  hold.holdable = true;
  let nodePaused = socket._paused;
  Object.defineProperty(socket, '_paused', {
    configurable: true,
    enumerable: true,
    get: () => nodePaused || hold.holding,
    set: (value: boolean) => {
      nodePaused = value;
    },
  });
}
