// node bench/attacks.mjs BASE_URL JSON
//
// The overload attacks of issue 31 against one running server, each for `seconds`, as a process of
// its own (the load generator is not starved by the benchmark's bookkeeping), printing one JSON line:
// - pipelined: one client pipelines `depth` reads by id on each of `connections` keep-alive connections
//   (as fast as answers come back);
// - searchers: ten clients, each with ten concurrent searches (a client told 429 or 503 comes back
//   after 50-150 ms);
// - cheap flood: one client reads by id on `connections` connections, each as soon as the last answer
//   came back.
// Beside each, a polite client (a key of its own, a process of its own) reads one product by id at a
// time, 20 ms apart, on one kept-alive connection: its p50/p99/max and statuses are reported with the attack's statuses
// (and, for the searchers, each client's successes).
import http from 'node:http';
import { connect } from 'node:net';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [base, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson);
const { seconds, byId, search, floodKey, politeKey, searcherKeys, connections = 200, depth = 100 } = options;
// The polite client's read (by default the flood's): a product of its own tenant when it is another tenant's client.
const politeById = options.politeById ?? byId;

const count = (counts, key) => (counts[key] = (counts[key] ?? 0) + 1);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? null;

/** A raw connection keeping `window` GETs in flight until `until()`, counting the statuses. */
function flood(path, key, counts, window, until) {
  const { hostname, port } = new URL(base);
  const request = `GET ${path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer ${key}\r\n\r\n`;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let buffered = '';
    let inFlight = 0;
    const send = (n) => {
      if (until()) return;
      inFlight += n;
      socket.write(request.repeat(n));
    };
    socket.setEncoding('latin1');
    socket.on('connect', () => send(window));
    socket.on('data', (chunk) => {
      buffered += chunk;
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) break;
        count(counts, head.slice(9, 12));
        buffered = buffered.slice(end + 4 + length);
        inFlight--;
        send(1);
      }
      if (inFlight === 0 && until()) socket.destroy();
    });
    socket.on('error', () => count(counts, 'socket error'));
    socket.on('close', () => resolve());
    // Answers still owed when the attack ends are not waited for.
    setTimeout(() => socket.destroy(), (seconds + 15) * 1000).unref();
  });
}

function get(agent, path, key) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(`${base}${path}`, { agent, headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ status: 'error', ms: performance.now() - started }));
  });
}

/**
 * The polite client, its connection open and its key known before the attack starts. It runs as a
 * process of its own: in the attack's process its timings included the attack's own work (parsing
 * tens of thousands of answers), which is the load generator's delay, not the service's.
 */
async function politeClient() {
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), base, JSON.stringify({ ...options, role: 'polite' })],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.setEncoding('utf8');
  await new Promise((resolve) =>
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('ready\n')) resolve();
    }),
  );
  const ended = new Promise((resolve) => child.on('close', resolve));
  return async (until) => {
    // The attack's deadline is the polite client's too: it is told when it has passed.
    while (!until()) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end('stop\n');
    await ended;
    return JSON.parse(out.slice(out.indexOf('ready\n') + 'ready\n'.length));
  };
}

/** The polite client's process: ready once its first read is answered, then reads until told to stop. */
async function politeProcess() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  await get(agent, politeById, politeKey);
  let stopped = false;
  process.stdin.on('data', () => (stopped = true));
  process.stdout.write('ready\n');
  const result = await polite(agent, () => stopped);
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

async function polite(agent, until) {
  const statuses = {};
  const times = [];
  await new Promise((r) => setTimeout(r, 500));
  while (!until()) {
    const { status, ms } = await get(agent, politeById, politeKey);
    count(statuses, status);
    times.push(ms);
    await new Promise((r) => setTimeout(r, 20));
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  const round = (ms) => (ms === null ? null : Math.round(ms * 10) / 10);
  return { statuses, p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), max: round(times.at(-1)) };
}

const deadline = () => {
  const end = Date.now() + seconds * 1000;
  return () => Date.now() >= end;
};

async function pipelined() {
  const politeRun = await politeClient();
  const until = deadline();
  const statuses = {};
  const attack = Promise.all(Array.from({ length: connections }, () => flood(byId, floodKey, statuses, depth, until)));
  const politeResult = await politeRun(until);
  await attack;
  return { attack: `${connections} connections × ${depth} pipelined`, statuses, polite: politeResult };
}

async function searchers() {
  const politeRun = await politeClient();
  const until = deadline();
  const statuses = {};
  const successes = searcherKeys.map(() => 0);
  const agents = searcherKeys.map(() => new http.Agent({ keepAlive: true, maxSockets: 10 }));
  const attack = Promise.all(
    searcherKeys.flatMap((key, i) =>
      Array.from({ length: 10 }, async () => {
        while (!until()) {
          const { status } = await get(agents[i], search, key);
          count(statuses, status);
          if (status === 200) successes[i]++;
          else await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
        }
      }),
    ),
  );
  const politeResult = await politeRun(until);
  await attack;
  for (const agent of agents) agent.destroy();
  const mean = successes.reduce((a, b) => a + b, 0) / successes.length;
  const spread = mean > 0 ? Math.max(...successes.map((n) => Math.abs(n - mean) / mean)) : null;
  return { attack: `${searcherKeys.length} clients × 10 searches`, statuses, successes, spread, polite: politeResult };
}

async function cheapFlood() {
  const politeRun = await politeClient();
  const until = deadline();
  const statuses = {};
  const attack = Promise.all(Array.from({ length: connections }, () => flood(byId, floodKey, statuses, 1, until)));
  const politeResult = await politeRun(until);
  await attack;
  return { attack: `${connections} connections, one read at a time`, statuses, polite: politeResult };
}

if (options.role === 'polite') await politeProcess();
const only = options.only ?? ['pipelined', 'searchers', 'cheap flood'];
const results = {};
for (const [name, run] of [
  ['pipelined', pipelined],
  ['searchers', searchers],
  ['cheap flood', cheapFlood],
])
  if (only.includes(name)) {
    results[name] = await run();
    await new Promise((r) => setTimeout(r, 2000));
  }
console.log(JSON.stringify(results));
process.exit(0);
