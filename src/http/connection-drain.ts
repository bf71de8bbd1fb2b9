import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Shutdown of an HTTP/1.1 server whose clients keep their connections alive. Once draining starts,
 * every response says `Connection: close` (Node then closes its connection after it), those already
 * being prepared included, so that no new request arrives on an old connection; when the server
 * stops accepting, the connections idle between requests are closed, and the server is empty as
 * soon as the requests in flight are answered.
 */
export class ConnectionDrain {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();

  constructor(private readonly server: Server) {
    // Before Express, which is the server's first 'request' listener.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      if (this.draining) {
        res.setHeader('Connection', 'close');
        return;
      }
      this.inFlight.add(res);
      res.once('close', () => this.inFlight.delete(res));
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
   * Stops accepting connections and resolves once every connection is closed; connections still open
   * after `timeoutMs` (their requests still running) are closed then.
   */
  async close(timeoutMs: number): Promise<void> {
    this.start();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    const force = setTimeout(() => this.server.closeAllConnections(), timeoutMs);
    await closed;
    clearTimeout(force);
  }
}
