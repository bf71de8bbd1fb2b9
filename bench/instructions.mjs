// npm run bench:instructions -- [--node BIN] [--requests 5000] [--warmup 20000] [--connections 10]
//                               [--service-dist DIR] [--baseline-dist DIR] [--only TEXT]
//
// Instructions per request, counted by valgrind's callgrind: the service (dist/main.js), the framework
// floor (bench/floor-app.mjs) and the fair server (bench/fair-server.mjs), and with --baseline-dist a
// second build, on `/health/live` and one product by id. Each server runs under callgrind with its
// counting off while autocannon warms it up (--warmup requests: JIT, caches, prepared statements),
// then counts exactly --requests requests, less what the process runs of its own meanwhile (timers),
// at the rate counted idle for 20 s before them. Instructions do not depend on what else the machine is
// doing, so two builds can be compared on a noisy machine, where node CPU per request (npm run bench)
// moves by ±20 µs from one measurement to the next: /health/live within about ±7% between runs; one
// product by id not yet (the same build counted 256,000 to 501,000 a request: what V8 and the
// process's timers do during the long counted window is not all subtracted). They are not time: a cache miss
// or a system call counts nothing of its own (the kernel's work is not counted at all).
//
// "Own" is what npm run bench calls own CPU, in instructions: the service's per request minus the
// floor's on /health/live, and on one product by id also minus what the fair server spends on the
// answer beyond its own /health/live. Database: DATABASE_URL with the data set of npm run bench (the
// product is one of ten_bench_00's). Needs valgrind (apt-get install valgrind). About a minute a
// server and path; results go to bench/results/<date>-instructions.md.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { untilLive } from './until-live.mjs';

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    requests: { type: 'string', default: '5000' },
    warmup: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '10' },
    'service-dist': { type: 'string', default: 'dist' },
    'baseline-dist': { type: 'string' },
    only: { type: 'string' },
  },
});
const IDLE_SECONDS = 20;
const KEY = 'ck_test_BenchTenant00AllScopesKey000000000000000001';
const requests = Number(values.requests);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL: the database of npm run bench, with its data set');

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  throw new Error('valgrind is not installed: apt-get install valgrind');
}

const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const { rows } = await client.query(
  `SELECT id FROM products WHERE tenant_id = 'ten_bench_00' ORDER BY id
    OFFSET (SELECT count(*) / 2 FROM products WHERE tenant_id = 'ten_bench_00') LIMIT 1`,
);
await client.end();
if (rows.length === 0) throw new Error('no product of ten_bench_00: generate the data set (npm run bench) first');
const byId = `/v1/catalog/products/${rows[0].id}`;

const servers = [
  { name: 'service', script: `${values['service-dist']}/main.js`, paths: ['/health/live', byId] },
  ...(values['baseline-dist']
    ? [{ name: 'baseline', script: `${values['baseline-dist']}/main.js`, paths: ['/health/live', byId] }]
    : []),
  { name: 'fair', script: 'bench/fair-server.mjs', paths: ['/health/live', byId] },
  { name: 'floor', script: 'bench/floor-app.mjs', paths: ['/health/live'] },
].filter((s) => !values.only || values.only.split(',').some((o) => s.name === o));

const autocannon = (base, path, count, json = false) =>
  execFileSync(
    process.execPath,
    [
      'node_modules/autocannon/autocannon.js',
      ...['-c', values.connections, '-a', String(count), '-H', `Authorization=Bearer ${KEY}`],
      ...(json ? ['-j'] : []),
      `${base}${path}`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 },
  ).toString();

/** Instructions per request of one server on one path, counted over exactly `requests` requests. */
async function count(server, path) {
  const dir = mkdtempSync(join(tmpdir(), 'cia-instructions-'));
  const port = 3200 + Math.floor(Math.random() * 700);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      // V8 writes and rewrites machine code: valgrind must look for it everywhere.
      '--smc-check=all',
      `--callgrind-out-file=${dir}/out.%p`,
      values.node,
      server.script,
    ],
    {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DOCS_ENABLED: 'false',
        APP_ENV: 'development',
        DB_POOL_SIZE: '10',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let failed = null;
  child.once('error', (error) => (failed = error));
  const ended = () => failed !== null || child.exitCode !== null || child.signalCode !== null;
  const base = `http://127.0.0.1:${port}`;
  try {
    // Under callgrind a server starts 20 to 50 times slower than natively.
    await untilLive(base, { tries: 600, everyMs: 500, gone: ended, name: server.name }).catch((error) =>
      Promise.reject(new Error(`${error.message}:\n${stderr.slice(-2000)}`)),
    );
    autocannon(base, path, Number(values.warmup));
    const control = (...args) => execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });
    // What the process runs of its own (timers: the row writers' check, pool housekeeping, metrics) is
    // counted first, idle, for IDLE_SECONDS after the warm-up has settled (part 1); the requests then
    // (part 2) less that rate over their time.
    await new Promise((r) => setTimeout(r, 5000));
    control('-i', 'on');
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    control('-d');
    const started = performance.now();
    const r = JSON.parse(autocannon(base, path, requests, true));
    const seconds = (performance.now() - started) / 1000;
    control('-d');
    control('-i', 'off');
    if (r['2xx'] !== requests) throw new Error(`${server.name} ${path}: ${r['2xx']} of ${requests} answered 2xx`);
    const part = (n) => {
      const file = readdirSync(dir).find((f) => f.endsWith(`.${n}`));
      return Number(/^totals: (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'))[1]);
    };
    const idle = (part(1) / IDLE_SECONDS) * seconds;
    return { perRequest: Math.round((part(2) - idle) / requests), idle: Math.round(idle / requests), seconds };
  } finally {
    child.kill('SIGTERM');
    if (!ended()) await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

const counts = {};
/** What the process ran of its own, idle, over as long as the requests took (per request): subtracted. */
const idleCounts = {};
for (const server of servers)
  for (const path of server.paths) {
    const { perRequest, idle, seconds } = await count(server, path);
    counts[`${server.name} ${path}`] = perRequest;
    idleCounts[`${server.name} ${path}`] = idle;
    console.log(
      `${server.name.padEnd(8)} ${path.padEnd(40)} ${perRequest} instructions/request ` +
        `(less ${idle} a request: the idle rate over their ${seconds.toFixed(0)} s)`,
    );
  }

const at = (name, path) => counts[`${name} ${path}`];
const own = (name) => {
  const live = at(name, '/health/live') - at('floor', '/health/live');
  const id = at(name, byId) - at('floor', '/health/live') - (at('fair', byId) - at('fair', '/health/live'));
  return { live, id };
};
const builds = servers.filter((s) => s.name === 'service' || s.name === 'baseline').map((s) => s.name);
const complete = ['fair', 'floor'].every((n) => servers.some((s) => s.name === n));
const nodeVersion = execFileSync(values.node, ['--version']).toString().trim();
const md = [
  `Instructions per request (valgrind callgrind) of ${new Date().toISOString()}, Node ${nodeVersion}: ` +
    `${values.warmup} requests to warm up, then ${requests} counted, at ${values.connections} connections ` +
    `(autocannon, with the bench's key). service: ${values['service-dist']}` +
    (values['baseline-dist'] ? `; baseline: ${values['baseline-dist']}` : '') +
    '.',
  '',
  '| server | path | instructions per request | idle rate over the same time, per request (subtracted) |',
  '|---|---|---:|---:|',
  ...Object.entries(counts).map(([k, v]) => {
    const [name, path] = k.split(' ');
    return (
      `| ${name} | ${path === byId ? 'one product by id' : path} | ${v.toLocaleString('en')} | ` +
      `${idleCounts[k].toLocaleString('en')} |`
    );
  }),
  '',
  ...(complete
    ? [
        '| build | own on /health/live (service − floor) | own on one product by id (service − floor − (fair by id − fair /health/live)) |',
        '|---|---:|---:|',
        ...builds.map((b) => `| ${b} | ${own(b).live.toLocaleString('en')} | ${own(b).id.toLocaleString('en')} |`),
        '',
      ]
    : []),
];
mkdirSync(resolve('bench/results'), { recursive: true });
const file = resolve(`bench/results/${new Date().toISOString().replace(/[:.]/g, '-')}-instructions.md`);
writeFileSync(file, md.join('\n'));
console.log(md.join('\n'));
console.log(`Written to ${file}`);
