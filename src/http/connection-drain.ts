import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * How long no request (other than a probe) must have arrived before the server stops accepting
 * connections: by then the load balancers have stopped routing here. A load balancer still routing
 * here sends far more often than this; a health checker keeps probing a server it has taken out, so
 * probes do not count.
 */
export const QUIET_MS = 1000;

/** Probes and scrapes, which keep coming after the load balancers stop routing requests here. */
function isProbe(url: string | undefined): boolean {
  return url !== undefined && (url.startsWith('/health/') || url === '/metrics');
}

const now = (): number => performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The set a response is in until it closes: one shared listener, not a closure and a `once` wrapper per request. */
const IN_FLIGHT = Symbol('drain-in-flight');
type InFlight = ServerResponse & { [IN_FLIGHT]?: Set<ServerResponse> };

function leaveInFlight(this: InFlight): void {
  this[IN_FLIGHT]?.delete(this);
}

/**
 * Shutdown of an HTTP/1.1 server whose clients keep their connections alive, without refusing or
 * resetting a request that a load balancer still sends here:
 * - `start()` (at the signal): every response from now on says `Connection: close`, those already
 *   being prepared included, and Node closes its connection after it; the server keeps accepting.
 * - `close()` (after the shutdown delay): the server keeps accepting, and answering, as long as
 *   requests keep arriving (a load balancer that has not noticed the failing readiness yet), and
 *   stops once none has arrived for `QUIET_MS`, at the latest when half of the time it is given has
 *   passed. Then the connections idle between requests are closed (no one sends on them any more)
 *   and it resolves as soon as the requests in flight are answered; connections still open at the
 *   end of the time given are closed.
 *
 * Stopping to accept at a fixed time after the signal, as before, reset or refused every request a
 * load balancer sent in between: connections in the kernel's accept queue are reset when the
 * listening socket closes, later ones are refused, and an idle kept-alive connection closed just as
 * the balancer sends on it is reset too.
 */
export class ConnectionDrain {
  private draining = false;
  private lastRequestAt = Number.NEGATIVE_INFINITY;
  private readonly inFlight = new Set<ServerResponse>();

  constructor(private readonly server: Server) {
    // Before Express, which is the server's first 'request' listener.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!isProbe(req.url)) this.lastRequestAt = now();
      if (this.draining) {
        res.setHeader('Connection', 'close');
        return;
      }
      this.inFlight.add(res);
      (res as InFlight)[IN_FLIGHT] = this.inFlight;
      res.on('close', leaveInFlight);
    });
  }

  /** From now on every response closes its connection. */
  start(): void {
    if (this.draining) return;
    this.draining = true;
    for (const res of this.inFlight) {
      if (!res.headersSent) {
        res.setHeader('Connection', 'close');
      } else {
        // Already announced as kept alive: closed once written instead.
        const socket = res.socket;
        res.once('finish', () => socket?.end());
      }
    }
    this.inFlight.clear();
  }

  /**
   * Stops accepting connections once requests have stopped arriving (at the latest after half of
   * `timeoutMs`) and resolves once every connection is closed; connections still open at the end of
   * `timeoutMs` (their requests still running) are closed then.
   */
  async close(timeoutMs: number): Promise<void> {
    this.start();
    const startedAt = now();
    const acceptUntil = startedAt + timeoutMs / 2;
    for (;;) {
      const quietFor = now() - this.lastRequestAt;
      if (quietFor >= QUIET_MS || now() >= acceptUntil) {
        // Once more after an I/O poll (a setImmediate callback runs right after one): requests that
        // waited while this process was busy or descheduled are seen, and the connections the
        // kernel has queued meanwhile are accepted, before the listening socket closes.
        await new Promise((resolve) => setImmediate(resolve));
        if (now() - this.lastRequestAt >= QUIET_MS || now() >= acceptUntil) break;
        continue;
      }
      await sleep(Math.min(QUIET_MS - quietFor, acceptUntil - now()) + 1);
    }
    // Node's close also closes the connections idle between requests; a connection accepted whose
    // first request has not been read yet is not idle to Node, and is answered.
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const force = setTimeout(() => this.server.closeAllConnections(), Math.max(0, startedAt + timeoutMs - now()));
    await closed;
    clearTimeout(force);
  }
}
