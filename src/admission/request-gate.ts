export interface GateLimits {
  /** Requests of one connection in the application at once (pipelined ones beyond wait, in order). */
  readonly perConnection: number;
  /** Requests of one client (the credential it presents) in the application at once. */
  readonly perClient: number;
  /** Requests in the application at once, of all clients. */
  readonly total: number;
  /**
   * How long a request may be held, from its parsing, before `sweep` sheds it (when nothing of its
   * connection runs: only then could its answer be written now). Infinity: never shed.
   */
  readonly holdMs?: number;
  /**
   * Held requests of one connection, and of the process, beyond which a connection is closed
   * (`overHeld`): what Node parsed from one read of a socket is held in memory (about 4 KB a
   * request), so a client pipelining hundreds of small requests on many connections would otherwise
   * take the process's memory. Infinity: no bound.
   */
  readonly heldPerConnection?: number;
  readonly heldTotal?: number;
}

/** Why a held request was shed: its client holds at least its share (429), or the process is full (503). */
export type Shed = 'client' | 'service';

interface GateConnection<C, T> {
  readonly key: C;
  running: number;
  readonly held: T[];
  /**
   * Each held request's client, beside `held`: a client is named per request, not per connection (a
   * connection may carry several clients' requests, as a proxy's does, and its first request does
   * not name the rest).
   */
  readonly heldClients: string[];
  /**
   * When each held request was parsed (the clock's time), beside `held`; the first one's is moved on
   * to when its connection frees for it (`markReady`): its time behind its own connection's running
   * request is not counted against `holdMs`, or every request a pipelining client sent at once would
   * be shed in turn as its connection reached it (docs/rate-limits.md#overload).
   */
  readonly heldSince: number[];
  /** Listed in the `ready` queue of its first held request's client: that request waits for the client or the process. */
  ready: boolean;
}

interface GateClient<C, T> {
  running: number;
  /** Connections whose next request may start as soon as the client's and the process's bounds allow. */
  readonly ready: GateConnection<C, T>[];
  /** The number of its last start: among clients running as many, the least recently served goes first. */
  served: number;
}

/**
 * What requests enter the application (docs/rate-limits.md#overload), decided as each is parsed,
 * before any work is spent on it (routing, the key lookup, the rate limit, admission to a pool):
 * at most `perConnection` of one connection, `perClient` of one client and `total` of the process at
 * once. A request beyond a bound is held, and its connection is read no further (the caller pauses
 * it): a flood is paced by TCP flow control at the rate its share is served, while it costs the
 * process nothing but the requests parsed from one read per connection.
 *
 * Held requests start in order per connection; among clients, a freed place goes to the client
 * running the fewest (the least recently served among equals): N clients that want more than the
 * process admits each get about 1/N of it, and a lone client gets all of it (work-conserving).
 *
 * A client is named by the caller for each request, before anything is spent on it (see
 * `gateClientOf`): requests of one connection may belong to different clients.
 */
export class RequestGate<C extends object, T> {
  private readonly connections = new WeakMap<C, GateConnection<C, T>>();
  private readonly clients = new Map<string, GateClient<C, T>>();
  private running = 0;
  private held = 0;
  private starts = 0;

  constructor(
    private readonly limits: GateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A request parsed on `connection` of `client`: true when it may start now (it is counted as
   * running), false when it is held (it is returned by a later `release` or `drain`).
   */
  offer(connection: C, client: string, request: T): boolean {
    const state = this.connection(connection);
    if (state.held.length === 0 && this.mayStart(state, client)) {
      this.start(state, client);
      return true;
    }
    state.held.push(request);
    state.heldClients.push(client);
    state.heldSince.push(this.now());
    this.held++;
    if (!state.ready && state.running < this.limits.perConnection && state.held.length === 1) this.markReady(state);
    return false;
  }

  /**
   * A request of `client` on `connection` has ended: the requests that may start now, each with its
   * connection (already counted as running). The caller starts them in order. `shed`: the request
   * ended was one `sweep` returned, which counted on its connection alone.
   */
  release(connection: C, client: string, shed = false): { connection: C; request: T }[] {
    const state = this.connections.get(connection)!;
    state.running--;
    if (!shed) {
      this.running--;
      this.clients.get(client)!.running--;
    }
    if (!state.ready && state.held.length > 0 && state.running < this.limits.perConnection) this.markReady(state);
    const started = this.dispatch();
    this.forget(client);
    return started;
  }

  /** A connection that closed: its held requests are dropped (Node has aborted them). */
  close(connection: C): T[] {
    const state = this.connections.get(connection);
    if (state === undefined) return [];
    const readyFor = state.heldClients[0];
    const dropped = state.held.splice(0);
    this.held -= dropped.length;
    state.heldClients.length = 0;
    state.heldSince.length = 0;
    if (state.ready) {
      const client = this.clients.get(readyFor)!;
      client.ready.splice(client.ready.indexOf(state), 1);
      state.ready = false;
    }
    if (readyFor !== undefined) this.forget(readyFor);
    return dropped;
  }

  /**
   * Held requests that have waited longer than `holdMs` and could be answered now (the first held
   * of a connection running nothing: HTTP/1.1 answers in order, so a request behind its own
   * connection's running ones could not be answered before them, and is not shed). Each is counted
   * as running on its connection only (its answer is a refusal, no work for the client's or the
   * process's bounds); the caller answers it at once and calls `release(connection, true)` when it
   * ends. `client` when its client runs at least its share: `perClient`, or the process's `total`
   * divided among the clients that run or hold requests (as the fair scheduler's refusals decide);
   * else `service`. Called by a timer a few times a second: it looks only at connections waiting
   * for their client or the process. Then the requests that may start now (without `shed`): a shed's
   * connection may hold another client's request next, which may have room.
   */
  sweep(): { connection: C; request: T; shed?: Shed }[] {
    const holdMs = this.limits.holdMs ?? Infinity;
    if (holdMs === Infinity) return [];
    const overdue = this.now() - holdMs;
    const share = this.limits.total / this.clients.size;
    const shed: { connection: C; request: T; shed: Shed }[] = [];
    for (const [name, client] of this.clients) {
      const reason: Shed = client.running >= this.limits.perClient || client.running >= share ? 'client' : 'service';
      for (let i = 0; i < client.ready.length;) {
        const state = client.ready[i];
        if (state.running > 0 || state.heldSince[0] > overdue) {
          i++;
          continue;
        }
        client.ready.splice(i, 1);
        state.ready = false;
        const request = state.held.shift()!;
        state.heldClients.shift();
        state.heldSince.shift();
        this.held--;
        state.running++;
        shed.push({ connection: state.key, request, shed: reason });
        // Its next request waits behind it (it is running now), as behind any other.
        if (state.held.length > 0 && state.running < this.limits.perConnection) this.markReady(state);
      }
      this.forget(name);
    }
    return shed.length === 0 ? shed : [...shed, ...this.dispatch()];
  }

  /**
   * Whether `connection` holds more requests than `heldPerConnection`, or the process more than
   * `heldTotal`: the caller closes the connection (its held requests are dropped: `close`).
   */
  overHeld(connection: C): boolean {
    const held = this.connections.get(connection)?.held.length ?? 0;
    return (
      held > 0 &&
      (held > (this.limits.heldPerConnection ?? Infinity) || this.held > (this.limits.heldTotal ?? Infinity))
    );
  }

  /** Held requests of `connection` (0 when it may be read on). */
  heldOn(connection: C): number {
    return this.connections.get(connection)?.held.length ?? 0;
  }

  /** Requests running and held, and clients known (for the tests: memory stays bounded). */
  state(): { running: number; held: number; clients: number; runningOf: (client: string) => number } {
    return {
      running: this.running,
      held: this.held,
      clients: this.clients.size,
      runningOf: (client) => this.clients.get(client)?.running ?? 0,
    };
  }

  private connection(connection: C): GateConnection<C, T> {
    let state = this.connections.get(connection);
    if (state === undefined) {
      state = { key: connection, running: 0, held: [], heldClients: [], heldSince: [], ready: false };
      this.connections.set(connection, state);
    }
    return state;
  }

  private client(name: string): GateClient<C, T> {
    let client = this.clients.get(name);
    if (client === undefined) {
      // A newcomer counts as served just before the latest start (as in the fair scheduler).
      client = { running: 0, ready: [], served: this.starts - 0.5 };
      this.clients.set(name, client);
    }
    return client;
  }

  private mayStart(state: GateConnection<C, T>, client: string): boolean {
    return (
      this.running < this.limits.total &&
      state.running < this.limits.perConnection &&
      (this.clients.get(client)?.running ?? 0) < this.limits.perClient
    );
  }

  private start(state: GateConnection<C, T>, name: string): void {
    const client = this.client(name);
    client.running++;
    client.served = ++this.starts;
    state.running++;
    this.running++;
  }

  private markReady(state: GateConnection<C, T>): void {
    state.heldSince[0] = Math.max(state.heldSince[0], this.now());
    state.ready = true;
    this.client(state.heldClients[0]).ready.push(state);
  }

  private dispatch(): { connection: C; request: T }[] {
    const started: { connection: C; request: T }[] = [];
    while (this.running < this.limits.total) {
      let best: GateClient<C, T> | undefined;
      for (const client of this.clients.values()) {
        if (client.ready.length === 0 || client.running >= this.limits.perClient) continue;
        if (
          best === undefined ||
          client.running < best.running ||
          (client.running === best.running && client.served < best.served)
        )
          best = client;
      }
      if (best === undefined) break;
      const state = best.ready.shift()!;
      state.ready = false;
      const request = state.held.shift()!;
      const client = state.heldClients.shift()!;
      state.heldSince.shift();
      this.held--;
      this.start(state, client);
      started.push({ connection: state.key, request });
      if (state.held.length > 0 && state.running < this.limits.perConnection) this.markReady(state);
    }
    return started;
  }

  /** A client that runs nothing and has nothing held is forgotten (memory stays bounded). */
  private forget(name: string): void {
    const client = this.clients.get(name);
    if (client !== undefined && client.running === 0 && client.ready.length === 0) this.clients.delete(name);
  }
}
