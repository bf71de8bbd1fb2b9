/**
 * What a read costs, which decides the lane it waits in (docs/rate-limits.md#overload). `cheap` reads
 * (a key, a store, one product by id, a list page read through the maintained counts) may use every
 * connection of a pool. `expensive` reads (searches, counted filters, deep pages, sync rounds,
 * categories and promotions) may use at most a part of them, so that cheap reads always find one.
 */
export type Cost = 'cheap' | 'expensive';

/**
 * Why a read was not started: `client`, the client asks for more than its share (a 429); `service`,
 * the service is over capacity although this client is within its share (a 503).
 */
export type Refusal = 'client' | 'service';

export class AdmissionRefused extends Error {
  override readonly name = 'AdmissionRefused';

  constructor(readonly refusal: Refusal) {
    super(refusal === 'client' ? 'the client is over its share of the capacity' : 'the service is over capacity');
  }
}

export interface SchedulerLimits {
  /** Reads at once, of either cost: the pool's connections. */
  readonly capacity: number;
  /** Expensive reads at once (fewer than `capacity`: the rest is for cheap reads). */
  readonly expensive: number;
  /**
   * Expensive reads at once while their client is alone (no other client holds or waits for a
   * connection of the pool) and no cheap read waits: a lone client may use the connections nobody
   * else wants (work-conserving). At least `expensive`, fewer than `capacity`; reads started so run
   * to their end when others come, and none starts beyond `expensive` once they are there.
   */
  readonly expensiveAlone?: number;
  /** Expensive reads of one client at once (a hard cap; `expensive` leaves it to fairness alone). */
  readonly expensivePerClient: number;
  /** The longest a read waits in a queue that empties now and then (a burst). */
  readonly waitMs: number;
  /**
   * The longest a read waits once its lane's queue has stood for `intervalMs` without emptying: a
   * standing queue only adds latency (CoDel's target, as in Facebook's adaptive queue timeouts).
   */
  readonly targetMs: number;
  readonly intervalMs: number;
  /** Reads one client may have waiting in a lane. */
  readonly queuePerClient: number;
  /** Reads waiting in a lane, of all clients. */
  readonly queueLimit: number;
}

interface Waiter {
  readonly client: string;
  readonly lane: Cost;
  grant(): void;
  refuse(refusal: Refusal): void;
  timer?: NodeJS.Timeout;
}

interface Lane {
  readonly queues: Map<string, Waiter[]>;
  waiting: number;
  held: number;
  /** When the queue last went from empty to not empty; null while it is empty. */
  standingSince: number | null;
}

interface Client {
  held: Record<Cost, number>;
  /** The grant number of its last grant in each lane: the least recently served goes first among equals. */
  served: Record<Cost, number>;
}

/**
 * The admission of reads to one pool's connections: a fair, work-conserving scheduler with bounded
 * queues (docs/rate-limits.md#overload).
 *
 * - Never more than `capacity` reads at once, never more than `expensiveAlone` expensive ones, and
 *   no expensive read starts beyond `expensive` unless its client is alone on the pool and no cheap
 *   read waits.
 * - Work-conserving: a read waits only when no connection of its lane is free to it; a lone client
 *   may use the whole capacity of a lane, and of the expensive lane up to `expensiveAlone` (the
 *   connections kept for cheap reads that nobody wants now).
 * - Fair: each client has a queue of its own per lane; a freed connection goes to the waiting client
 *   that holds the fewest in that lane (the least recently served among equals): N contending clients
 *   each hold about 1/N of the lane. When both lanes wait, they take turns for free connections.
 * - Bounded: at most `queuePerClient` waiting reads of a client per lane while another client wants
 *   the lane (more is a 429; a lone client may queue up to `queueLimit`), and `queueLimit` in all
 *   per lane (a read beyond it displaces the newest of the client with the longest queue, or is
 *   refused when that client is itself).
 * - Shed early: a read waits at most `waitMs`, or `targetMs` when its lane's queue has not emptied for
 *   `intervalMs` and its client holds its share already while another wants the lane, and never more than half the time left
 *   before its deadline; then it is refused, `client` when its client already holds its fair share
 *   of the lane (capacity over the clients that want it), else `service`.
 */
export class FairScheduler {
  private readonly lanes: Record<Cost, Lane> = { cheap: newLane(), expensive: newLane() };
  private readonly clients = new Map<string, Client>();
  private held = 0;
  private grants = 0;
  /** The lane that goes first when both wait. */
  private turn: Cost = 'cheap';

  constructor(
    private readonly limits: SchedulerLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves once the read may start; rejects with AdmissionRefused when it may not. */
  /** Starts a read at once when it may start now (as `acquire` would), without a promise; else false. */
  tryAcquire(client: string, lane: Cost): boolean {
    if (!this.mayStart(client, lane)) return false;
    this.start(client, lane);
    return true;
  }

  acquire(client: string, lane: Cost, deadlineMs: number): Promise<void> {
    if (this.mayStart(client, lane)) {
      this.start(client, lane);
      return Promise.resolve();
    }
    // At most half the time left: a read started at its deadline would only fail there (a 500).
    const waitMs = Math.min(this.waitBound(client, lane), (deadlineMs - this.now()) / 2);
    if (waitMs <= 0) return Promise.reject(new AdmissionRefused(this.refusalOf(client, lane)));
    const queue = this.lanes[lane].queues.get(client);
    // A lone client may queue up to the lane's limit: nobody else's wait grows with its queue.
    const queueBound = this.contended(client, lane) ? this.limits.queuePerClient : this.limits.queueLimit;
    if ((queue?.length ?? 0) >= queueBound) return Promise.reject(new AdmissionRefused('client'));
    if (this.lanes[lane].waiting >= this.limits.queueLimit && !this.displaceFor(client, lane))
      return Promise.reject(new AdmissionRefused(this.refusalOf(client, lane)));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        client,
        lane,
        grant: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        refuse: (refusal) => {
          clearTimeout(waiter.timer);
          reject(new AdmissionRefused(refusal));
        },
      };
      waiter.timer = setTimeout(() => {
        this.remove(waiter);
        waiter.refuse(this.refusalOf(client, lane));
      }, waitMs);
      // A wait keeps no process alive (a command-line tool, a test) that has nothing else to do.
      waiter.timer.unref();
      this.enqueue(waiter);
    });
  }

  /** A read of `client` in `lane` has ended: its connection goes to whoever is next. */
  release(client: string, lane: Cost): void {
    const entry = this.clients.get(client)!;
    entry.held[lane]--;
    this.lanes[lane].held--;
    this.held--;
    this.forget(client);
    this.dispatch();
  }

  /** Reads running and waiting now (for the metrics and the tests). */
  state(): { held: number; heldIn: Record<Cost, number>; waiting: Record<Cost, number> } {
    const { cheap, expensive } = this.lanes;
    return {
      held: this.held,
      heldIn: { cheap: cheap.held, expensive: expensive.held },
      waiting: { cheap: cheap.waiting, expensive: expensive.waiting },
    };
  }

  /**
   * A standing queue cuts the waits of the clients at or over their share to the target: they are
   * the ones it stands for. A client under its share is next for a connection and waits it out.
   */
  private waitBound(client: string, lane: Cost): number {
    const since = this.lanes[lane].standingSince;
    const standing = since !== null && this.now() - since >= this.limits.intervalMs;
    if (!standing || !this.contended(client, lane) || this.refusalOf(client, lane) === 'service')
      return this.limits.waitMs;
    return Math.min(this.limits.targetMs, this.limits.waitMs);
  }

  /** Whether another client holds or waits for a connection of the lane. */
  private contended(client: string, lane: Cost): boolean {
    for (const name of this.lanes[lane].queues.keys()) if (name !== client) return true;
    for (const [name, entry] of this.clients) if (name !== client && entry.held[lane] > 0) return true;
    return false;
  }

  private laneCapacity(lane: Cost, alone = false): number {
    if (lane === 'cheap') return this.limits.capacity;
    return alone ? this.expensiveAlone() : this.limits.expensive;
  }

  private expensiveAlone(): number {
    return Math.max(this.limits.expensive, this.limits.expensiveAlone ?? this.limits.expensive);
  }

  /** Whether no client but `client` holds or waits for a connection of the pool. */
  private alone(client: string): boolean {
    for (const name of this.clients.keys()) if (name !== client) return false;
    return true;
  }

  /** Whether the expensive lane has a connection for `client`: its share, or one nobody else wants. */
  private expensiveRoom(client: string): boolean {
    const held = this.lanes.expensive.held;
    if (held < this.limits.expensive) return true;
    return held < this.expensiveAlone() && this.lanes.cheap.waiting === 0 && this.alone(client);
  }

  private mayStart(client: string, lane: Cost): boolean {
    if (this.held >= this.limits.capacity) return false;
    if (lane === 'cheap') return true;
    return (
      this.expensiveRoom(client) && (this.clients.get(client)?.held.expensive ?? 0) < this.limits.expensivePerClient
    );
  }

  private start(client: string, lane: Cost): void {
    const entry = this.client(client);
    entry.held[lane]++;
    entry.served[lane] = ++this.grants;
    this.lanes[lane].held++;
    this.held++;
  }

  /**
   * A full lane makes room for `client` by refusing the newest read of the client with the most
   * waiting, when that client has more waiting than `client` would: a flood cannot keep a queue full
   * against others. False when `client` is that client itself.
   */
  private displaceFor(client: string, lane: Cost): boolean {
    const mine = this.lanes[lane].queues.get(client)?.length ?? 0;
    let longest: Waiter[] | undefined;
    for (const queue of this.lanes[lane].queues.values()) if (queue.length > (longest?.length ?? 0)) longest = queue;
    if (longest === undefined || longest.length <= mine + 1) return false;
    const victim = longest[longest.length - 1];
    this.remove(victim);
    victim.refuse('client');
    return true;
  }

  /**
   * `client` when the client holds at least its share of the lane: its expensive cap, or the lane's
   * capacity divided among the clients that hold or wait for a read in it (itself included).
   */
  private refusalOf(client: string, lane: Cost): Refusal {
    const wanting = new Set(this.lanes[lane].queues.keys());
    for (const [name, entry] of this.clients) if (entry.held[lane] > 0) wanting.add(name);
    wanting.add(client);
    const held = this.clients.get(client)?.held[lane] ?? 0;
    if (lane === 'expensive' && held >= this.limits.expensivePerClient) return 'client';
    return held >= this.laneCapacity(lane, wanting.size === 1) / wanting.size ? 'client' : 'service';
  }

  private enqueue(waiter: Waiter): void {
    const lane = this.lanes[waiter.lane];
    let queue = lane.queues.get(waiter.client);
    if (queue === undefined) {
      queue = [];
      lane.queues.set(waiter.client, queue);
      this.client(waiter.client);
    }
    queue.push(waiter);
    if (lane.waiting++ === 0) lane.standingSince = this.now();
  }

  private remove(waiter: Waiter): void {
    const lane = this.lanes[waiter.lane];
    const queue = lane.queues.get(waiter.client)!;
    queue.splice(queue.indexOf(waiter), 1);
    if (queue.length === 0) lane.queues.delete(waiter.client);
    if (--lane.waiting === 0) lane.standingSince = null;
    this.forget(waiter.client);
  }

  /** Grants free connections to waiting reads, lanes in turn, the least served client of a lane first. */
  private dispatch(): void {
    while (this.held < this.limits.capacity) {
      const cheap = this.next('cheap');
      const expensive = this.next('expensive');
      const waiter = cheap && expensive ? (this.turn === 'cheap' ? cheap : expensive) : (cheap ?? expensive);
      if (waiter === undefined) return;
      this.turn = waiter.lane === 'cheap' ? 'expensive' : 'cheap';
      this.remove(waiter);
      this.start(waiter.client, waiter.lane);
      waiter.grant();
    }
  }

  /** The waiting read that may start next in `lane`, if any. */
  private next(lane: Cost): Waiter | undefined {
    const state = this.lanes[lane];
    if (state.waiting === 0) return undefined;
    let best: { queue: Waiter[]; held: number; served: number } | undefined;
    for (const [name, queue] of state.queues) {
      const entry = this.clients.get(name)!;
      const held = entry.held[lane];
      if (lane === 'expensive' && (held >= this.limits.expensivePerClient || !this.expensiveRoom(name))) continue;
      const served = entry.served[lane];
      if (best === undefined || held < best.held || (held === best.held && served < best.served))
        best = { queue, held, served };
    }
    return best?.queue[0];
  }

  private client(name: string): Client {
    let entry = this.clients.get(name);
    if (entry === undefined) {
      // A newcomer counts as served just before the latest grant: ahead of the client served last,
      // behind those that have waited for longer.
      const served = this.grants - 0.5;
      entry = { held: { cheap: 0, expensive: 0 }, served: { cheap: served, expensive: served } };
      this.clients.set(name, entry);
    }
    return entry;
  }

  /** A client that holds nothing and waits for nothing is forgotten (memory stays bounded). */
  private forget(name: string): void {
    const entry = this.clients.get(name);
    if (entry === undefined || entry.held.cheap > 0 || entry.held.expensive > 0) return;
    if (this.lanes.cheap.queues.has(name) || this.lanes.expensive.queues.has(name)) return;
    this.clients.delete(name);
  }
}

function newLane(): Lane {
  return { queues: new Map(), waiting: 0, held: 0, standingSince: null };
}
