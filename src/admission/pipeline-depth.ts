import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** One connection's requests: those handed to the application, and those parsed but held back. */
interface Connection {
  running: number;
  readonly held: { req: IncomingMessage; res: ServerResponse }[];
  /** Reading stopped by this bound (Node may have stopped it too, for its own reasons). */
  holding: boolean;
}

/** Node's flag of a socket it stopped reading (src: lib/_http_server.js), and its parser. */
interface ServerSocket extends Socket {
  _paused: boolean;
  parser?: { resume(): void } | null;
}

/**
 * At most `depth` requests of one connection are handled at once (docs/rate-limits.md#overload).
 * Node hands every pipelined request of a connection to the application as soon as it is parsed, so
 * one client pipelining 100 requests on each of 200 connections had 20,000 in flight. Here, once a
 * connection has `depth` requests running and more arrive, its socket is no longer read until they
 * are answered (as nginx and other HTTP servers do): the rest wait unread in the kernel's buffers
 * and the client's, costing this process nothing, and TCP flow control slows the sender. Requests
 * already parsed from the last read (at most one read's worth, 64 KiB) wait here, in order, and
 * start as earlier ones finish.
 *
 * Node stops reading a socket itself when its responses are not being read (`_paused`), and resumes
 * it when they drain, or when a finished request's body is dumped; the flag is therefore made to
 * read true while either Node or this bound holds the connection, so that neither resumes it under
 * the other (Node's own guard, onSocketResume, pauses a socket again while `_paused` is true).
 */
export function boundPipelining(server: Server, depth: number): void {
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const connections = new WeakMap<Socket, Connection>();

  const run = (connection: Connection, req: IncomingMessage, res: ServerResponse): void => {
    connection.running++;
    res.once('close', () => {
      connection.running--;
      next(req.socket as ServerSocket, connection);
    });
    for (const handler of handlers) handler.call(server, req, res);
  };

  const next = (socket: ServerSocket, connection: Connection): void => {
    while (connection.running < depth && connection.held.length > 0) {
      const { req, res } = connection.held.shift()!;
      // A connection that closed meanwhile: Node has aborted its requests.
      if (socket.destroyed) {
        connection.held.length = 0;
        break;
      }
      run(connection, req, res);
    }
    if (connection.held.length === 0 && connection.holding) {
      connection.holding = false;
      if (!socket._paused && !socket.destroyed) {
        socket.parser?.resume();
        socket.resume();
      }
    }
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as ServerSocket;
    let connection = connections.get(socket);
    if (connection === undefined) {
      connection = { running: 0, held: [], holding: false };
      connections.set(socket, connection);
      holdable(socket, connection);
    }
    if (connection.running < depth && connection.held.length === 0) run(connection, req, res);
    else connection.held.push({ req, res });
    // Only once a request is held: a connection with nothing pipelined is still read, so that a client
    // that goes away is noticed (and its request's work ended) while its request runs.
    if (connection.held.length > 0 && !connection.holding) {
      connection.holding = true;
      socket.pause();
    }
  });
}

/** Makes `_paused` true while this bound holds the connection, whatever Node sets it to. */
function holdable(socket: ServerSocket, connection: Connection): void {
  let nodePaused = socket._paused;
  Object.defineProperty(socket, '_paused', {
    configurable: true,
    enumerable: true,
    get: () => nodePaused || connection.holding,
    set: (value: boolean) => {
      nodePaused = value;
    },
  });
}
