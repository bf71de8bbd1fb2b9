import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { spawn } from 'node:child_process';
import { boundRequests, gateClientOf, sweepIntervalMs } from './pipeline-depth.js';
import { type GateLimits, RequestGate, type Shed } from './request-gate.js';

/** A small linear congruential generator: the same sequence for the same seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SEED = Number(process.env.GATE_SEED ?? Math.floor(Math.random() * 2 ** 31));

interface Req {
  readonly id: number;
  readonly connection: { name: string };
  readonly client: string;
  /** `shed`: started by `sweep` to be refused (it counts on its connection alone). */
  state: 'held' | 'running' | 'shed' | 'done' | 'dropped';
  /** When it was offered, on the schedule's clock. */
  readonly at: number;
  /** Since when it has been first held on a connection running nothing (answerable now), if it is. */
  answerableSince?: number;
  /** Since when it has been first of its connection's held requests (its wait behind them is over). */
  firstSince?: number;
}

/**
 * Generated schedules against the request gate (GATE_SEED replays one): clients with several
 * connections, pipelined bursts, requests ending in any order, connections closing. After every step:
 * - never more than `perConnection` of a connection, `perClient` of a client, `total` in all, running;
 * - work-conserving: no held request could start (its connection, its client and the process all
 *   have room) while it is held;
 * - fair: a freed place went to a client running the fewest among those with a startable request;
 * - each connection's requests start in the order they arrived;
 * - held time: the clock moves on and the gate is swept every `sweepIntervalMs(holdMs)`, as the
 *   server's timer does; no request waits held longer than `holdMs` plus one sweep interval while
 *   nothing of its connection runs (one behind its connection's running requests waits for them:
 *   it could not be answered before them); a shed request is classified `client` exactly when its
 *   client runs at least its share (`perClient`, or `total` divided among the clients running or
 *   waiting for their client or the process), and a `service` shed only comes with the process full;
 * - memory: once everything has ended, the gate knows no client.
 */
describe(`RequestGate under generated schedules (GATE_SEED=${SEED})`, () => {
  it('keeps its bounds, conserves work, shares fairly, keeps each connection in order and sheds what it held too long', () => {
    console.log(`GATE_SEED=${SEED}`);
    const random = seeded(SEED);
    const problems: string[] = [];
    const sheds: Record<Shed, number> = { client: 0, service: 0 };
    // 40 schedules, and more until both kinds of shed came (some seeds' first 40 bring no service shed).
    const enough = (run: number) => run >= 40 && sheds.client > 0 && sheds.service > 0;
    for (let run = 0; run < 400 && !enough(run) && problems.length === 0; run++) {
      const limits: GateLimits = {
        perConnection: 1 + Math.floor(random() * 3),
        perClient: 1 + Math.floor(random() * 6),
        total: 1 + Math.floor(random() * 12),
        holdMs: 10 + Math.floor(random() * 300),
        // Half the runs bound what is held (a connection over either bound is closed by the caller).
        ...(random() < 0.5
          ? { heldPerConnection: 1 + Math.floor(random() * 6), heldTotal: 1 + Math.floor(random() * 16) }
          : {}),
      };
      const holdMs = limits.holdMs!;
      const interval = sweepIntervalMs(holdMs);
      let now = 0;
      let nextSweep = interval;
      const gate = new RequestGate<{ name: string }, Req>(limits, () => now);
      const clients = ['a', 'b', 'c', 'd'].slice(0, 1 + Math.floor(random() * 4));
      const connections = clients.flatMap((client) =>
        Array.from({ length: 1 + Math.floor(random() * 4) }, (_, i) => ({
          client,
          connection: { name: `${client}${i}` },
        })),
      );
      const closed = new Set<{ name: string }>();
      const reqs: Req[] = [];
      let nextId = 0;
      const at = (step: number, what: string) => `run ${run} ${JSON.stringify(limits)} step ${step}: ${what}`;
      const running = (pred: (r: Req) => boolean) => reqs.filter((r) => r.state === 'running' && pred(r)).length;
      // What holds a connection's place: its running requests and the sheds being answered.
      const onConnection = (connection: { name: string }) =>
        reqs.filter((r) => (r.state === 'running' || r.state === 'shed') && r.connection === connection).length;
      const firstHeld = (h: Req) => reqs.find((r) => r.state === 'held' && r.connection === h.connection) === h;
      const startedOrder = new Map<string, number[]>();
      const markStarted = (r: Req) => {
        r.state = 'running';
        const list = startedOrder.get(r.connection.name) ?? [];
        list.push(r.id);
        startedOrder.set(r.connection.name, list);
      };
      for (let step = 0; step < 120 && problems.length === 0; step++) {
        // The clock moves on by up to half a sweep interval; the timer sweeps on its beat.
        now += Math.floor(random() * (interval / 2));
        while (nextSweep <= now) {
          // Each shed's classification, from the state the sweep saw.
          const runningOf = new Map(clients.map((c) => [c, running((x) => x.client === c)]));
          const waiting = new Set(
            reqs
              .filter((h) => h.state === 'held' && firstHeld(h) && onConnection(h.connection) < limits.perConnection)
              .map((h) => h.client),
          );
          const wanting = clients.filter((c) => runningOf.get(c)! > 0 || waiting.has(c)).length;
          const full = running(() => true) >= limits.total;
          for (const { connection, request, shed } of gate.sweep()) {
            if (shed === undefined) {
              // A start the sheds made room for (another client's request next on a shed's connection).
              if (request.connection !== connection) problems.push(at(step, 'a request started on another connection'));
              markStarted(request);
              continue;
            }
            sheds[shed]++;
            const ran = runningOf.get(request.client)!;
            const expected: Shed = ran >= limits.perClient || ran >= limits.total / wanting ? 'client' : 'service';
            if (request.connection !== connection) problems.push(at(step, 'a shed on another connection'));
            if (request.state !== 'held' || !firstHeld(request))
              problems.push(at(step, `request ${request.id} shed while not first held on its connection`));
            if (onConnection(connection) > 0)
              problems.push(at(step, `request ${request.id} shed while its connection has a request running`));
            // Its time behind its own connection's earlier requests does not count (docs/rate-limits.md).
            if (now - (request.firstSince ?? now) < holdMs)
              problems.push(at(step, `request ${request.id} shed before holdMs after its connection reached it`));
            if (shed !== expected)
              problems.push(at(step, `request ${request.id} of ${request.client} (running ${ran}) shed as ${shed}`));
            if (shed === 'service' && !full) problems.push(at(step, `a service shed with the process not full`));
            markStarted(request);
            request.state = 'shed';
          }
          nextSweep += interval;
        }
        const roll = random();
        const runningReqs = reqs.filter((r) => r.state === 'running' || r.state === 'shed');
        if (roll < 0.5 || runningReqs.length === 0) {
          // Arrivals: a pipelined burst on one open connection.
          const open = connections.filter((c) => !closed.has(c.connection));
          if (open.length === 0) break;
          const { client: usual, connection } = open[Math.floor(random() * open.length)];
          const burst = random() < 0.3 ? 1 + Math.floor(random() * 8) : 1;
          for (let i = 0; i < burst; i++) {
            // Mostly the connection's usual client; sometimes another's request on it (a proxy's
            // connection carries several clients': each request counts for its own).
            const client = random() < 0.8 ? usual : clients[Math.floor(random() * clients.length)];
            const r: Req = { id: nextId++, connection, client, state: 'held', at: now };
            reqs.push(r);
            if (gate.offer(connection, client, r)) markStarted(r);
            else if (gate.overHeld(connection)) {
              // The caller closes such a connection: the gate says so only over a bound.
              const heldHere = reqs.filter((x) => x.state === 'held' && x.connection === connection).length;
              const heldAll = reqs.filter((x) => x.state === 'held').length;
              if (heldHere <= (limits.heldPerConnection ?? Infinity) && heldAll <= (limits.heldTotal ?? Infinity))
                problems.push(at(step, `${connection.name} closed for holding ${heldHere} (${heldAll} in all)`));
              closed.add(connection);
              for (const dropped of gate.close(connection)) dropped.state = 'dropped';
              break;
            }
          }
        } else if (roll < 0.95) {
          // An end: the freed places go to the least-running clients with something startable.
          const r = runningReqs[Math.floor(random() * runningReqs.length)];
          const wasShed = r.state === 'shed';
          r.state = 'done';
          const startable = (c: string) =>
            reqs.some(
              (h) =>
                h.state === 'held' &&
                h.client === c &&
                onConnection(h.connection) < limits.perConnection &&
                firstHeld(h),
            );
          const before = new Map(clients.map((c) => [c, running((x) => x.client === c)]));
          const started = gate.release(r.connection, r.client, wasShed);
          for (const { connection, request } of started) {
            if (request.connection !== connection) problems.push(at(step, 'a request started on another connection'));
            const fewest = Math.min(
              ...clients
                .filter((c) => (startable(c) && before.get(c)! < limits.perClient) || c === request.client)
                .map((c) => before.get(c)!),
            );
            if (before.get(request.client)! > fewest)
              problems.push(
                at(
                  step,
                  `${request.client} (running ${before.get(request.client)}) went before a client running ${fewest}`,
                ),
              );
            before.set(request.client, before.get(request.client)! + 1);
            markStarted(request);
          }
        } else {
          // A connection closes: its held requests are dropped, its running ones end later.
          const open = connections.filter((c) => !closed.has(c.connection));
          if (open.length === 0) continue;
          const { connection } = open[Math.floor(random() * open.length)];
          closed.add(connection);
          for (const dropped of gate.close(connection)) dropped.state = 'dropped';
        }
        // The bounds.
        if (running(() => true) > limits.total) problems.push(at(step, 'more than total running'));
        const heldNow = reqs.filter((r) => r.state === 'held');
        if (heldNow.length > (limits.heldTotal ?? Infinity)) problems.push(at(step, `${heldNow.length} held in all`));
        for (const { connection } of connections)
          if (heldNow.filter((r) => r.connection === connection).length > (limits.heldPerConnection ?? Infinity))
            problems.push(at(step, `${connection.name} holds more than heldPerConnection`));
        if (gate.state().held !== heldNow.length) problems.push(at(step, 'the gate miscounts what it holds'));
        for (const c of clients)
          if (running((r) => r.client === c) > limits.perClient) problems.push(at(step, `${c} above perClient`));
        for (const { connection } of connections)
          if (onConnection(connection) > limits.perConnection)
            problems.push(at(step, `${connection.name} above perConnection`));
        // Work-conserving: a held request first on its connection, with room everywhere, is a fault.
        for (const h of reqs.filter((r) => r.state === 'held')) {
          const first = firstHeld(h);
          if (
            first &&
            running(() => true) < limits.total &&
            running((r) => r.client === h.client) < limits.perClient &&
            onConnection(h.connection) < limits.perConnection
          )
            problems.push(at(step, `request ${h.id} of ${h.client} held with room for it`));
          if (first) h.firstSince ??= now;
          // Held time: answerable (first, nothing of its connection running) for at most holdMs and a sweep.
          if (!first || onConnection(h.connection) > 0) h.answerableSince = undefined;
          else {
            h.answerableSince ??= now;
            const waited = now - Math.max(h.at, h.answerableSince);
            if (waited > holdMs + interval)
              problems.push(
                at(step, `request ${h.id} of ${h.client} held ${waited} ms (holdMs ${holdMs}, sweep ${interval})`),
              );
          }
        }
        if (gate.state().running !== running(() => true)) problems.push(at(step, 'the gate miscounts'));
      }
      // Order per connection: started ids increase.
      for (const [name, ids] of startedOrder)
        if (ids.some((id, i) => i > 0 && id < ids[i - 1])) problems.push(`run ${run}: ${name} started out of order`);
      // Everything ends (held ones start as places free): then no client is remembered.
      for (let guard = 0; guard < 10_000; guard++) {
        const r = reqs.find((x) => x.state === 'running' || x.state === 'shed');
        if (r === undefined) break;
        const wasShed = r.state === 'shed';
        r.state = 'done';
        for (const { request } of gate.release(r.connection, r.client, wasShed)) markStarted(request);
      }
      if (reqs.some((r) => r.state === 'held')) problems.push(`run ${run}: requests left held with nothing running`);
      if (gate.state().clients !== 0) problems.push(`run ${run}: ${gate.state().clients} clients remembered`);
    }
    console.log(`GATE_SEED=${SEED}: sheds`, sheds);
    expect([`GATE_SEED=${SEED}`, problems.slice(0, 5)]).toEqual([`GATE_SEED=${SEED}`, []]);
    // The schedules reach both kinds of shed (else the checks above checked nothing).
    expect([`GATE_SEED=${SEED}`, sheds.client > 0, sheds.service > 0]).toEqual([`GATE_SEED=${SEED}`, true, true]);
  });
});

/** The flood, as a process of its own: `connections` sockets, each keeping `depth` requests pipelined. */
const FLOOD = `
const { connect } = require('node:net');
const [port, connections, depth] = process.argv.slice(1).map(Number);
const request = 'GET /v1/x HTTP/1.1\\r\\nHost: t\\r\\nAuthorization: flood\\r\\n\\r\\n';
for (let i = 0; i < connections; i++) {
  const socket = connect(port, '127.0.0.1', () => socket.write(request.repeat(depth)));
  socket.on('data', (chunk) => {
    const answers = chunk.toString('latin1').split('HTTP/1.1 200').length - 1;
    if (answers > 0) socket.write(request.repeat(answers));
  });
  socket.on('error', () => process.exit(0));
}
`;

/**
 * On a real HTTP server: one client (another process) keeps a flood of requests pipelined on many
 * connections, which the application answers without I/O (as it answers a 429 or a refusal of
 * admission), and a polite client sends one request at a time. A polite request must not wait behind
 * the flood's parsed requests: few of the flood's start between its sending and its own start.
 * Before the gate started held requests from setImmediate, each answer started the next held
 * request in the same turn of the event loop, and every parsed request of a flood connection ran
 * before the next socket (the polite one among them) was read. Counted in starts, not timed.
 */
describe(`boundRequests on an HTTP server (GATE_SEED=${SEED})`, () => {
  it("a polite client's requests are not queued behind a flood's held requests", async () => {
    const random = seeded(SEED ^ 0x5f3759df);
    const connections = 20 + Math.floor(random() * 30);
    const depth = 50 + Math.floor(random() * 50);
    const perClient = 2 + Math.floor(random() * 6);
    const starts: string[] = [];
    const server = http.createServer((req, res) => {
      starts.push(String(req.headers.authorization));
      res.setHeader('Content-Length', '2');
      res.end('ok');
    });
    // Each Authorization header names its client here (the service names one by a key it knows).
    boundRequests(server, { perConnection: 1, perClient, total: 256 }, (req) =>
      gateClientOf(req, (r) => r.headers.authorization),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const flood = spawn(process.execPath, ['-e', FLOOD, String(port), String(connections), String(depth)], {
      stdio: 'ignore',
    });
    const floodStartsBefore: number[] = [];
    try {
      while (starts.length < connections * depth) await new Promise((r) => setTimeout(r, 5));
      const polite = connect(port, '127.0.0.1');
      await new Promise((resolve) => polite.once('connect', resolve));
      for (let i = 0; i < 10; i++) {
        const sentAt = starts.length;
        const answered = new Promise((resolve) => polite.once('data', resolve));
        polite.write(`GET /v1/x HTTP/1.1\r\nHost: t\r\nAuthorization: polite\r\n\r\n`);
        await answered;
        const politeAt = starts.indexOf('polite', sentAt);
        floodStartsBefore.push(starts.slice(sentAt, politeAt).length);
        await new Promise((r) => setTimeout(r, 5));
      }
      polite.destroy();
    } finally {
      flood.kill();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    console.log('flood beside a polite client', { connections, depth, perClient, floodStartsBefore });
    // A few turns of the event loop at most (each starts at most `perClient` of the flood), not the flood.
    expect([`GATE_SEED=${SEED}`, Math.max(...floodStartsBefore) <= 20 * perClient]).toEqual([
      `GATE_SEED=${SEED}`,
      true,
    ]);
  });
});
