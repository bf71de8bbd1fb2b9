// npm run bench -- [--duration 10] [--warmup 5] [--connections 50] [--products 1000000] [--stores 50]
//                  [--only TEXT] [--repeat N] [--soak SECONDS] [--skip-sync] [--skip-overload]
//                  [--service-dist DIR] [--baseline-dist DIR] [--service-env K=V,...] [--baseline-env K=V,...]
//                  [--node BIN] [--image TAG] [--baseline-image TAG] [--help]
//
// Measures the service (dist/main.js) against the fair baseline (bench/fair-server.mjs: the same
// answers the cheapest known way, plain columns mapped to the same bytes in Node, on plain
// node:http + pg) and the framework floor (bench/floor-app.mjs: a minimal Nest + Express app), on the
// same data, in one run, with autocannon in a separate process (and, with --baseline-dist, a second
// build of the service, taking turns with the first):
// saturation at --connections (requests/s of 2xx answers, p50/p99, node CPU and database CPU per
// request, failures), compressed answers (Accept-Encoding: gzip, br),
// latency at a fixed offered load of half the fair server's throughput (open loop), cheap requests
// while expensive searches saturate the database, the sync walks of a client, and RSS.
// Database: DATABASE_URL, else the embedded database of `npm start`. The data set (db:generate) is
// generated there when it does not hold --products products. Results go to bench/results/<date>.*.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pg from 'pg';
import { loadConfig } from '../dist/config/app-config.js';
import { commandDatabase } from '../dist/startup/command-database.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    repeat: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    products: { type: 'string', default: '1000000' },
    stores: { type: 'string', default: '50' },
    tenants: { type: 'string', default: '20' },
    only: { type: 'string' },
    soak: { type: 'string', default: '0' },
    'skip-sync': { type: 'boolean', default: false },
    'skip-overload': { type: 'boolean', default: false },
    // Another build of the service (its dist/ folder), to compare builds on the same harness.
    'service-dist': { type: 'string', default: 'dist' },
    // A second build measured beside the first in the same run, taking turns (e.g. main's).
    'baseline-dist': { type: 'string' },
    // Settings of the service for this run (e.g. ADMISSION_EXPENSIVE_READS=1), on top of the bench's.
    'service-env': { type: 'string' },
    // The second build's settings instead of --service-env's (e.g. the same build without a setting).
    'baseline-env': { type: 'string' },
    // Every server (service, baseline, fair, floor) on another Node.js binary (e.g. the image's Node 26).
    node: { type: 'string' },
    // What ships: the service from this container image (podman, host network), and the fair server
    // and the floor from the same image (its Node.js, its node_modules, its dist/), bench/ mounted.
    image: { type: 'string' },
    // A second image measured beside the first (e.g. main's), taking turns.
    'baseline-image': { type: 'string' },
    // Nothing is written to the database (someone else's): the attacks' polite client and searchers
    // are the bench keys of tenants 01–11 (each reading its own tenant), not clients made for them.
    'read-only': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(`npm run bench -- [options]
  --duration S        seconds per measurement (10)        --warmup S       warm-up per server (5)
  --connections N     autocannon connections (50)        --repeat N       turns per server, median kept (1)
  --products N        products of ten_bench_00 (1000000) --stores N       stores (50)   --tenants N (20)
  --only A,B          scenarios whose name contains A or B (no open loop or sync; "overload" selects it,
                      "overload:" the attacks of bench/attacks.mjs alone)
  --skip-sync         no walks, incremental rounds, VAT-rate edit, compressed walk
  --skip-overload     no overload scenario              --soak S         RSS soak at the end (0)
  --service-dist DIR  the service's build (dist)
  --baseline-dist DIR a second build of the service, measured in the same run, taking turns
  --service-env K=V,… settings of the service (and of the second build) for this run; a value may hold "="
  --baseline-env K=V,… the second build's settings instead of --service-env's ("" for none)
  --node BIN          run every server with this Node.js binary instead of the bench's own
  --image TAG         the service from this container image (podman run --network=host), and the fair
                      server and the floor from the same image (its Node.js and dist/, bench/ mounted)
  --baseline-image T  a second image, measured in the same run, taking turns (with --image)
  --read-only         write nothing to the database (no VAT-rate setup, no attack clients: the polite
                      client and the searchers are tenants 01–11's bench keys); no sync scenarios
Database: DATABASE_URL, else the embedded database of npm start. Results: bench/results/<date>.md/.json`);
  process.exit(0);
}
const duration = Number(values.duration);
const repeat = Number(values.repeat);
if (!Number.isInteger(repeat) || repeat < 1)
  throw new Error(`--repeat must be a whole number from 1, not ${values.repeat}`);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const products = Number(values.products);
const KEY = 'ck_test_BenchTenant00AllScopesKey000000000000000001';
const TICK_US = 1e6 / 100; // /proc/<pid>/stat counts CPU time in clock ticks of 10 ms

const database = await commandDatabase(loadConfig({ ...process.env, LOG_LEVEL: 'silent' }));
const databaseUrl = database.url;
const query = async (sql, params = []) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
};

async function ensureDataset() {
  const [{ t }] = await query(`SELECT to_regclass('public.products') AS t`);
  const count = t
    ? Number((await query(`SELECT count(*) AS n FROM products WHERE tenant_id = 'ten_bench_00'`))[0].n)
    : 0;
  if (count === products) return;
  console.log(`Generating ${products} products (found ${count})…`);
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  execFileSync(process.execPath, ['dist/tools/cli/db-migrate.js'], { stdio: 'inherit', env });
  const args = ['--products', values.products, '--stores', values.stores, '--tenants', values.tenants];
  execFileSync(process.execPath, ['dist/tools/cli/db-generate.js', ...args], { stdio: 'inherit', env });
}

// The servers end with the benchmark, however it ends (an error before the measurements, a signal).
const children = [];
const containers = [];
process.on('exit', () => {
  children.forEach((child) => child.kill('SIGTERM'));
  for (const name of containers) spawn('podman', ['rm', '-f', '-t', '2', name], { stdio: 'ignore' });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));

const nodeBinary = values.node ?? process.execPath;
/** As scripts/image/build.sh and test/image.e2e-spec.ts run containers here (runc, 1024 limits). */
const PODMAN_RUN = [
  '--runtime',
  process.env.PODMAN_RUNTIME ?? 'runc',
  'run',
  '--rm',
  '--ulimit=nofile=1024:1024',
  '--ulimit=nproc=1024:1024',
];
/**
 * A server: `args` for node, run on this machine (nodeBinary), or with `image` in a container of that
 * image on the host's network (ports and the database as on this machine), bench/ and openapi.json
 * mounted for the fair server and the floor. `pid` is the node process's (the container's first process).
 */
async function start(name, args, env, image) {
  const port = 3200 + Math.floor(Math.random() * 700);
  const allEnv = { DATABASE_URL: databaseUrl, PORT: String(port), ...env };
  let child;
  let pid;
  if (image) {
    const container = `cia-bench-${name}-${process.pid}`;
    containers.push(container);
    const envArgs = Object.entries(allEnv).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    child = spawn(
      'podman',
      [
        ...PODMAN_RUN,
        '--name',
        container,
        '--network=host',
        '-v',
        `${resolve('bench')}:/app/bench:ro`,
        // The fair server's product row is compiled from the committed document's Product.
        '-v',
        `${resolve('openapi.json')}:/app/openapi.json:ro`,
        ...envArgs,
        '--entrypoint',
        'node',
        image,
        ...args,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } else {
    child = spawn(nodeBinary, args, {
      env: { PATH: process.env.PATH, ...allEnv },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    pid = child.pid;
  }
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}/health/live`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      if (image)
        pid = Number(
          execFileSync('podman', ['inspect', '--format', '{{.State.Pid}}', `cia-bench-${name}-${process.pid}`])
            .toString()
            .trim(),
        );
      return { name, child, pid, base, container: image ? `cia-bench-${name}-${process.pid}` : null };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not start`);
}

/**
 * Ends a server. A container is removed: node as a container's first process has no default
 * SIGTERM handler, so the fair server and the floor would go on running (and the bench with them).
 */
function stop(server) {
  if (server.container === null) server.child.kill('SIGTERM');
  else execFileSync('podman', ['rm', '-f', '-t', '2', server.container], { stdio: 'ignore' });
}

const procStat = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
const cpuTicks = (pid) => Number(procStat(pid)[11]) + Number(procStat(pid)[12]);
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/**
 * CPU ticks of the database's backends (user + system, from /proc): the sessions of the bench's
 * database, whose servers' pools keep their connections. Only one server is loaded at a time, so the
 * difference over a measurement is that server's. Parallel workers, which end with their query, are
 * not counted (their time goes to the postmaster).
 */
async function dbTicks() {
  const rows = await query(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND backend_type = 'client backend'`,
  );
  const ticks = new Map();
  for (const { pid } of rows) {
    try {
      ticks.set(pid, cpuTicks(pid));
    } catch {
      // Not readable (another machine's database, or gone): not counted.
    }
  }
  return ticks;
}
const dbTicksSince = (before, after) =>
  [...after].reduce((sum, [pid, ticks]) => sum + ticks - (before.get(pid) ?? 0), 0);

/** Waits until the database has no query left running (a timed-out request's query may outlive it). */
async function settle() {
  for (let i = 0; i < 60; i++) {
    const [{ n }] = await query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    if (n === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const ACCEPT_COMPRESSED = 'gzip, br';
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
/** The walks' connection, kept alive as a client's would be. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function autocannonArgs(url, seconds, options = {}) {
  const args = [
    'node_modules/autocannon/autocannon.js',
    '-c',
    String(options.connections ?? connections),
    '-d',
    String(seconds),
  ];
  if (options.rate) args.push('--overallRate', String(options.rate));
  if (options.compressed) args.push('-H', `Accept-Encoding=${ACCEPT_COMPRESSED}`);
  args.push('-j', '-H', `Authorization=Bearer ${KEY}`, url);
  return args;
}

/** The status counts of an autocannon result: { '200': n, '429': n, … }, no answer as 'none'. */
const statusCounts = (r) => ({
  ...Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [code, count])),
  ...(r.errors > 0 ? { none: r.errors } : {}),
});

function autocannon(url, seconds, options = {}) {
  const args = autocannonArgs(url, seconds, options);
  const r = JSON.parse(execFileSync(process.execPath, args, { maxBuffer: 64 << 20 }).toString());
  // Only 2xx answers count as served; the rest (non-2xx, errors, no answer within 10 s) are "failed".
  return {
    rps: r['2xx'] / seconds,
    ok: r['2xx'],
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors,
    bytesPerRequest: Math.round(r.throughput.total / Math.max(1, r.requests.total)),
    statuses: statusCounts(r),
  };
}

/** Requests at a fixed, evenly spaced rate (bench/open-loop.mjs), timed from when each was due. */
function openLoopRun(url, rate, seconds) {
  const out = execFileSync(process.execPath, [
    'bench/open-loop.mjs',
    url,
    String(rate),
    String(seconds),
    `Authorization=Bearer ${KEY}`,
  ]);
  return JSON.parse(out.toString());
}

/** Saturation run of one server, with its node CPU time and the database's CPU time per request. */
async function measure(server, path, options = {}) {
  await settle();
  const dbBefore = await dbTicks();
  const before = cpuTicks(server.pid);
  const result = autocannon(`${server.base}${path}`, duration, options);
  const after = cpuTicks(server.pid);
  const dbAfter = await dbTicks();
  const requests = Math.max(1, result.ok + result.failed);
  return {
    ...result,
    cpuUs: Math.round(((after - before) * TICK_US) / requests),
    dbUs: Math.round((dbTicksSince(dbBefore, dbAfter) * TICK_US) / requests),
  };
}

await ensureDataset();
const tenant = 'ten_bench_00';
const [{ n: inTenant }] = await query(`SELECT count(*)::int AS n FROM products WHERE tenant_id = $1`, [tenant]);
// 1% of the tenant's products use a VAT rate of their own, which the sync scenario edits (issue 26).
const EDITED_VAT = 'vat_bench_edited';
const vatShare = Math.max(1, Math.floor(inTenant / 100));
if (!values['read-only']) {
  await query(
    `INSERT INTO vat_rates (id, tenant_id, code, name, percentage) VALUES ($1, $2, 'B', 'Bench rate', 12.50)
     ON CONFLICT (id) DO NOTHING`,
    [EDITED_VAT, tenant],
  );
  await query(
    `UPDATE products SET vat_rate_id = $1 WHERE id IN (
       SELECT id FROM products WHERE tenant_id = $2 ORDER BY md5(id || 'vat') LIMIT $3)
     AND NOT EXISTS (SELECT 1 FROM products WHERE tenant_id = $2 AND vat_rate_id = $1)`,
    [EDITED_VAT, tenant, vatShare],
  );
}
const middle = (
  await query(`SELECT id FROM products WHERE tenant_id = $1 ORDER BY id OFFSET $2 LIMIT 1`, [
    tenant,
    Math.floor(inTenant / 2),
  ])
)[0].id;
const word = (
  await query(
    `SELECT split_part(name, ' ', 2) AS w FROM products WHERE tenant_id = $1 AND id >= $2 ORDER BY id LIMIT 1`,
    [tenant, middle],
  )
)[0].w.toLowerCase();
const recent = (
  await query(`SELECT updated_at FROM products WHERE tenant_id = $1 ORDER BY updated_at DESC OFFSET $2 LIMIT 1`, [
    tenant,
    Math.min(20000, Math.floor(inTenant / 50)),
  ])
)[0].updated_at.toISOString();
const rareSku = String(Math.floor(products * 0.61))
  .padStart(7, '0')
  .slice(0, 6);
const deepPage = Math.max(1, Math.floor(inTenant / 200));

/** Whether --only (comma-separated parts of names) selects a scenario. */
function selected(name) {
  return !values.only || values.only.split(',').some((part) => name.includes(part));
}

const scenarios = [
  ['products page 1', '/v1/catalog/products?pageSize=100'],
  [`products deep page (${deepPage})`, `/v1/catalog/products?pageSize=100&page=${deepPage}`],
  ['products q common word', `/v1/catalog/products?pageSize=100&q=${encodeURIComponent(word)}`],
  ['products q rare SKU fragment', `/v1/catalog/products?pageSize=100&q=${rareSku}`],
  ['products q 2-character term', '/v1/catalog/products?pageSize=100&q=ol'],
  ['products updatedSince', `/v1/catalog/products?pageSize=100&updatedSince=${encodeURIComponent(recent)}`],
  ['stock lowStockOnly', '/v1/inventory/stock?pageSize=100&lowStockOnly=true'],
  ['stock page 1', '/v1/inventory/stock?pageSize=100'],
  ['products page 1 compressed', '/v1/catalog/products?pageSize=100'],
  ['categories', '/v1/catalog/categories'],
  ['promotions', '/v1/catalog/promotions'],
  ['one product by id', `/v1/catalog/products/${middle}`],
  ['no work (/health/live)', '/health/live'],
].filter(([name]) => selected(name));

/** The fair server compresses as the service does: at the levels of src/http/compression.ts. */
async function compressionLevels() {
  const { COMPRESSION_LEVELS } = await import(
    pathToFileURL(resolve(values['service-dist'], 'http/compression.js')).href
  );
  return { ...COMPRESSION_LEVELS, source: "the service's levels" };
}
const levels = await compressionLevels();
/** `K=V,K=V` to settings; a value may hold `=` (NODE_OPTIONS=--max-semi-space-size=32). */
const settings = (text) =>
  Object.fromEntries(
    (text ?? '')
      .split(',')
      .filter(Boolean)
      .map((entry) => {
        const kv = entry.trim();
        const eq = kv.indexOf('=');
        if (eq <= 0) throw new Error(`a setting is NAME=VALUE, not "${kv}"`);
        return [kv.slice(0, eq), kv.slice(eq + 1)];
      }),
  );
const benchEnv = { LOG_LEVEL: 'warn', DOCS_ENABLED: 'false', APP_ENV: 'development', DB_POOL_SIZE: '10' };
const serviceEnv = { ...benchEnv, ...settings(values['service-env']) };
const baselineEnv =
  values['baseline-env'] === undefined ? serviceEnv : { ...benchEnv, ...settings(values['baseline-env']) };
const image = values.image;
if (values['baseline-image'] && !image) throw new Error('--baseline-image needs --image');
const service = image
  ? await start('service', ['dist/main.js'], serviceEnv, image)
  : await start('service', [`${values['service-dist']}/main.js`], serviceEnv);
const baseline = values['baseline-image']
  ? await start('baseline', ['dist/main.js'], baselineEnv, values['baseline-image'])
  : values['baseline-dist']
    ? await start('baseline', [`${values['baseline-dist']}/main.js`], baselineEnv)
    : null;
const fair = await start(
  'fair',
  ['bench/fair-server.mjs'],
  {
    // The image says production (ck_live_ keys only): the bench's key is a development one.
    APP_ENV: 'development',
    DB_POOL_SIZE: '10',
    FAIR_GZIP_LEVEL: String(levels.gzip),
    FAIR_BROTLI_QUALITY: String(levels.brotli),
  },
  image,
);
const floor = await start('floor', ['bench/floor-app.mjs'], {}, image);
/** The Node.js version the servers run on (the image's own with --image). */
const serversNode = image
  ? execFileSync('podman', [...PODMAN_RUN, '--entrypoint', 'node', image, '--version'])
      .toString()
      .trim()
  : execFileSync(nodeBinary, ['--version']).toString().trim();
const builds = [service, ...(baseline ? [baseline] : [])];
const cursorPath = async () => {
  const res = await fetch(`${service.base}/v1/catalog/products?pageSize=100&page=${deepPage}`, {
    headers: { Authorization: `Bearer ${KEY}` },
  });
  return /<([^>]+)>; rel="next"/.exec(res.headers.get('link'))[1];
};
if (selected('products cursor page') && values['service-dist'] === 'dist')
  scenarios.splice(2, 0, [`products cursor page (${deepPage + 1})`, await cursorPath()]);

// Every server must answer every scenario with the same bytes: otherwise the comparison is unfair.
// (fetch decompresses: compressed answers are compared by what they decode to.)
for (const [name, path] of scenarios) {
  if (path === '/health/live') continue;
  const [a, ...others] = await Promise.all(
    [service, fair, ...(baseline ? [baseline] : [])].map((s) =>
      fetch(`${s.base}${path}`, {
        headers: {
          Authorization: `Bearer ${KEY}`,
          ...(name.includes('compressed') ? { 'Accept-Encoding': ACCEPT_COMPRESSED } : {}),
        },
      }).then((r) => r.text()),
    ),
  );
  for (const b of others)
    if (a !== b)
      throw new Error(
        `${name}: another server's body differs from the service's:\n${a.slice(0, 300)}\n${b.slice(0, 300)}`,
      );
}
console.log(`Service and fair server answer the same bytes for all ${scenarios.length} scenarios.`);

const rssBefore = rssMiB(service.pid);
const results = [];
try {
  for (const [name, path] of scenarios) {
    const servers = path === '/health/live' ? [...builds, fair, floor] : [...builds, fair];
    const options = { compressed: name.includes('compressed') };
    // Warm each at load first: caches, prepared statements, JIT, and state that builds up with traffic.
    for (const server of servers) autocannon(`${server.base}${path}`, warmup, options);
    const row = { scenario: name, path };
    // With --repeat N the servers take turns N times and each keeps its median run: on a shared
    // machine, a slow minute then weighs on both sides instead of on one.
    const runs = new Map(servers.map((server) => [server, []]));
    for (let i = 0; i < repeat; i++)
      for (const server of servers) runs.get(server).push(await measure(server, path, options));
    for (const [server, list] of runs) row[server.name] = list.sort((a, b) => a.rps - b.rps)[(list.length - 1) >> 1];
    row.ratio = row.fair.rps > 0 ? row.service.rps / row.fair.rps : null;
    results.push(row);
    const line = (m) =>
      `${m.rps.toFixed(0).padStart(6)}/s ${String(m.cpuUs).padStart(5)}+${String(m.dbUs).padStart(5)} µs`;
    console.log(
      `${name.padEnd(32)} ${servers.map((server) => `${server.name} ${line(row[server.name])}`).join(' | ')}` +
        ` | ${row.ratio === null ? '-' : `${(row.ratio * 100).toFixed(0)}%`}`,
    );
  }

  // Latency at a fixed offered load (open loop): half of what the fair server sustains.
  const openLoop = [];
  for (const row of results.filter((r) =>
    ['products page 1', 'one product by id', 'stock page 1'].includes(r.scenario),
  )) {
    const rate = Math.max(1, Math.round(row.fair.rps / 2));
    const entry = { scenario: row.scenario, rate };
    for (const server of [service, fair]) {
      await settle();
      entry[server.name] = openLoopRun(`${server.base}${row.path}`, rate, duration);
    }
    openLoop.push(entry);
    console.log(
      `open loop ${row.scenario} at ${rate}/s: service p50 ${entry.service.p50} ` +
        `p99 ${entry.service.p99} ms | fair p50 ${entry.fair.p50} p99 ${entry.fair.p99} ` +
        `ms`,
    );
  }

  // Cheap requests while expensive searches saturate the database: one product by id at 10
  // connections, alone and while 100 concurrent broad searches (q=ab) run; the searches' statuses.
  let overload = null;
  if (!values['skip-overload'] && selected('overload')) {
    overload = {};
    for (const build of builds) overload[build.name] = await overloadRun(build);
  }

  // The attacks of issue 31 (bench/attacks.mjs, `--only overload:`): a polite client's reads by id
  // beside a pipelined flood, ten contending searchers and a flood of cheap reads, on each build.
  let attacks = null;
  if (!values['skip-overload'] && selected('overload:')) {
    const keys = await attackKeys();
    attacks = {};
    for (const build of builds) {
      await settle();
      attacks[build.name] = attacksRun(build, keys);
      for (const [name, a] of Object.entries(attacks[build.name]))
        console.log(
          `${build.name} overload: ${name}: polite p50 ${a.polite.p50} p99 ${a.polite.p99} ms ` +
            `${JSON.stringify(a.polite.statuses)}; attack ${JSON.stringify(a.statuses)}` +
            (a.successes ? `; successes ${a.successes.join(' ')}` : ''),
        );
    }
  }

  // A client's sync: a full walk of the tenant by next links and by page numbers, then an incremental
  // round after 1% of the products and of the stock levels changed.
  let sync = null;
  if (!values['skip-sync'] && !values.only && !values['read-only']) sync = await syncScenarios();

  let soak = null;
  if (Number(values.soak) > 0) {
    const before = rssMiB(service.pid);
    autocannon(`${service.base}/v1/catalog/products?pageSize=100&page=3`, Number(values.soak));
    soak = { seconds: Number(values.soak), rssBeforeMiB: before, rssAfterMiB: rssMiB(service.pid) };
  }
  const rssAfter = rssMiB(service.pid);
  report({ results, openLoop, overload, attacks, sync, soak, rssBefore, rssAfter });
} finally {
  for (const server of [...builds, fair, floor]) stop(server);
  await database.release();
}

async function overloadRun(server) {
  await settle();
  const byId = `${server.base}/v1/catalog/products/${middle}`;
  const alone = autocannon(byId, duration, { connections: 10 });
  const search = `${server.base}/v1/catalog/products?pageSize=100&q=ab`;
  const searches = spawn(process.execPath, autocannonArgs(search, duration + 2, { connections: 100 }), {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let searchOut = '';
  searches.stdout.on('data', (d) => (searchOut += d));
  await new Promise((r) => setTimeout(r, 1000));
  const underLoad = autocannon(byId, duration, { connections: 10 });
  await new Promise((r) => searches.once('exit', r));
  const s = JSON.parse(searchOut);
  const result = {
    alone,
    underLoad,
    searches: { statuses: statusCounts(s), p50: s.latency.p50, p99: s.latency.p99 },
  };
  console.log(
    `${server.name}: by id alone p50 ${alone.p50} p99 ${alone.p99} ms; under 100 searches q=ab: p50 ` +
      `${underLoad.p50} p99 ${underLoad.p99} ms, failed ${underLoad.failed}; searches ${JSON.stringify(result.searches.statuses)}`,
  );
  return result;
}

/**
 * The keys of the attacks: eleven more clients of the big tenant (a polite one and ten searchers),
 * made once (their searches cost what the first client's do), beside its own key (the flood's).
 */
async function attackKeys() {
  if (values['read-only']) {
    const benchKey = (i) => `ck_test_BenchTenant${String(i).padStart(2, '0')}AllScopesKey000000000000000001`;
    const [{ id }] = await query(`SELECT id FROM products WHERE tenant_id = 'ten_bench_01' ORDER BY id LIMIT 1`);
    return {
      floodKey: KEY,
      politeKey: benchKey(1),
      politeById: `/v1/catalog/products/${id}`,
      searcherKeys: Array.from({ length: 10 }, (_, i) => benchKey(i + 2)),
    };
  }
  const { digestKey, keyHint } = await import(pathToFileURL(resolve('dist/values/api-key-format.js')).href);
  const keyOf = (i) => `ck_test_BenchTenant00Attacker${String(i).padStart(2, '0')}Key00000000000000001`;
  for (let i = 0; i <= 10; i++) {
    await query(
      `INSERT INTO api_clients (id, tenant_id, name, status, scopes, allowed_store_ids, rate_limit_per_minute)
       SELECT $1, tenant_id, $2, status, scopes, NULL, 100000000 FROM api_clients WHERE id = 'cli_bench_00'
       ON CONFLICT (id) DO NOTHING`,
      [`cli_bench_00_attack_${i}`, `Bench attack client ${i}`],
    );
    await query(
      `INSERT INTO api_keys (id, client_id, key_digest, key_hint) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
      [`key_bench_00_attack_${i}`, `cli_bench_00_attack_${i}`, digestKey(keyOf(i)), keyHint(keyOf(i))],
    );
  }
  return { floodKey: KEY, politeKey: keyOf(0), searcherKeys: Array.from({ length: 10 }, (_, i) => keyOf(i + 1)) };
}

function attacksRun(server, keys) {
  const options = {
    seconds: duration,
    byId: `/v1/catalog/products/${middle}`,
    search: `/v1/catalog/products?pageSize=100&q=${encodeURIComponent(word)}`,
    ...keys,
  };
  const out = execFileSync(process.execPath, ['bench/attacks.mjs', server.base, JSON.stringify(options)], {
    maxBuffer: 16 << 20,
  });
  return JSON.parse(out.toString());
}

/** One GET on a kept-alive connection: status, headers, the body's bytes as sent and its text. */
function get(base, path, compressed) {
  return new Promise((resolve, reject) => {
    const target = new URL(base + path);
    const headers = { Authorization: `Bearer ${KEY}`, ...(compressed ? { 'Accept-Encoding': ACCEPT_COMPRESSED } : {}) };
    const req = httpRequest({ host: target.hostname, port: target.port, path, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode, headers: res.headers, bytes: raw.length, encoding, text: body.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A walk by next links: rows, pages, seconds, page latencies, the body bytes as sent, the position. */
async function walk(path, options = {}) {
  const server = options.server ?? service;
  let url = path;
  let rows = 0;
  let pages = 0;
  let bytes = 0;
  let decodedBytes = 0;
  let position = null;
  const encodings = new Set();
  const pageMs = [];
  const started = Date.now();
  while (url) {
    const t0 = performance.now();
    const res = await get(server.base, url, options.compressed);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    const body = JSON.parse(res.text);
    pageMs.push(performance.now() - t0);
    rows += body.rows.length;
    pages++;
    bytes += res.bytes;
    decodedBytes += Buffer.byteLength(res.text);
    encodings.add(res.encoding ?? 'identity');
    position = res.headers['sync-position'] ?? position;
    url = /<([^>]+)>; rel="next"/.exec(res.headers.link)?.[1];
    if (options.firstPageOnly) break;
  }
  const seconds = (Date.now() - started) / 1000;
  pageMs.sort((a, b) => a - b);
  const pct = (p) => Number(pageMs[Math.min(pageMs.length - 1, Math.floor(pageMs.length * p))].toFixed(1));
  return {
    server: server.name,
    rows,
    pages,
    seconds: Number(seconds.toFixed(1)),
    rowsPerSecond: Math.round(rows / seconds),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    bytes,
    decodedBytes,
    encodings: [...encodings],
    position,
  };
}

async function syncScenarios() {
  await settle();
  const byCursor = await walk('/v1/catalog/products?activeOnly=false&pageSize=100');
  console.log(
    `full walk by next links: ${byCursor.rows} rows in ${byCursor.seconds} s ` +
      `(${byCursor.rowsPerSecond} rows/s, page p50 ${byCursor.p50Ms} ms, p99 ${byCursor.p99Ms} ` +
      `ms, ${mb(byCursor.bytes)})`,
  );
  const stockWalk = await walk('/v1/inventory/stock?activeOnly=false&pageSize=100');
  // The same full copy asking for compression, from the service and from the fair server (which
  // compresses with node zlib at the same levels); bytes of bodies as sent.
  const compressed = {};
  for (const server of [...builds, fair]) {
    await settle();
    compressed[server.name] = await walk('/v1/catalog/products?activeOnly=false&pageSize=100', {
      server,
      compressed: true,
    });
    console.log(
      `compressed full walk (${server.name}): ${compressed[server.name].seconds} s, ` +
        `${mb(compressed[server.name].bytes)} as sent (${compressed[server.name].encodings.join(', ')})`,
    );
  }
  const compressedStock = await walk('/v1/inventory/stock?activeOnly=false&pageSize=100', { compressed: true });
  console.log(
    `full copy (products + stock): ${mb(byCursor.bytes + stockWalk.bytes)} identity, ` +
      `${mb(compressed.service.bytes + compressedStock.bytes)} asking for gzip, br (service)`,
  );
  const cap = 60_000;
  let capped = false;
  const byPage = await walkPages(cap, () => (capped = true));
  const projected = capped ? Math.round(((byCursor.rows / 100) * byPage.seconds) / byPage.pages) : byPage.seconds;
  console.log(
    `full walk by page numbers: ${byPage.pages} pages in ${byPage.seconds} s` +
      (capped
        ? ` (stopped at ${cap / 1000} s; the whole walk at this pace: ${projected} s, and pages get slower with depth)`
        : ''),
  );
  // A VAT rate used by 1% of the products is edited: the next round brings exactly its products, and
  // the edit itself rewrites no product (sync.md: a parent's marker, not its rows).
  await settle();
  const before = await walk('/v1/catalog/products?activeOnly=false&pageSize=100', { firstPageOnly: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const [{ n_tup_upd: updatesBefore }] = (
    await client.query(`SELECT n_tup_upd::int FROM pg_stat_user_tables WHERE relname = 'products'`)
  ).rows;
  const t0 = performance.now();
  await client.query('BEGIN');
  await client.query(`UPDATE vat_rates SET name = 'Bench rate ' || $2, percentage = percentage + 0.01 WHERE id = $1`, [
    EDITED_VAT,
    Date.now(),
  ]);
  await client.query('COMMIT');
  const editMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 700)); // table statistics are reported every 500 ms
  const [{ n_tup_upd: updatesAfter }] = (
    await client.query(`SELECT n_tup_upd::int FROM pg_stat_user_tables WHERE relname = 'products'`)
  ).rows;
  await client.end();
  await settle();
  const vatRound = await walk(
    `/v1/catalog/products?activeOnly=false&pageSize=100&changedSince=${encodeURIComponent(before.position)}`,
  );
  const vatEdit = {
    productsOfRate: vatShare,
    editMs: Number(editMs.toFixed(1)),
    productsRewritten: updatesAfter - updatesBefore,
    round: vatRound,
  };
  console.log(
    `VAT rate of ${vatShare} products edited in ${vatEdit.editMs} ms (${vatEdit.productsRewritten} product rows ` +
      `rewritten); next round: ${vatRound.pages} requests, ${vatRound.rows} rows, ${vatRound.seconds} s`,
  );
  // 1% of the products and of the stock levels change.
  const share = Math.max(1, Math.floor(byCursor.rows / 100));
  await query(
    `UPDATE products SET selling_price_gross = selling_price_gross + 0.01, updated_at = now()
      WHERE id IN (SELECT id FROM products WHERE tenant_id = $1 ORDER BY md5(id) LIMIT $2)`,
    [tenant, share],
  );
  await query(
    `UPDATE stock_levels SET quantity = quantity + 1, updated_at = now()
      WHERE product_id IN (SELECT product_id FROM stock_levels WHERE tenant_id = $1 ORDER BY md5(product_id || 's') LIMIT $2)`,
    [tenant, share],
  );
  await settle();
  const incremental = await walk(
    `/v1/catalog/products?activeOnly=false&pageSize=100&changedSince=${encodeURIComponent(vatRound.position ?? before.position)}`,
  );
  const incrementalStock = await walk(
    `/v1/inventory/stock?activeOnly=false&pageSize=100&changedSince=${stockWalk.position}`,
  );
  console.log(
    `incremental round after ${share} changes: products ${incremental.rows} rows ` +
      `in ${incremental.seconds} s; stock ${incrementalStock.rows} rows in ${incrementalStock.seconds} ` +
      `s`,
  );
  return {
    byCursor,
    stockWalk,
    compressed,
    compressedStock,
    byPage: { ...byPage, capped, projectedSeconds: projected },
    vatEdit,
    changed: share,
    incremental,
    incrementalStock,
  };

  async function walkPages(limitMs, onCap) {
    let pages = 0;
    let rows = 0;
    const started = Date.now();
    for (let page = 1; ; page++) {
      const res = await fetch(`${service.base}/v1/catalog/products?activeOnly=false&pageSize=100&page=${page}`, {
        headers: { Authorization: `Bearer ${KEY}` },
      });
      const body = await res.json();
      rows += body.rows.length;
      pages++;
      if (page >= body.totalPages) break;
      if (Date.now() - started > limitMs) {
        onCap();
        break;
      }
    }
    const seconds = (Date.now() - started) / 1000;
    return { pages, rows, seconds: Number(seconds.toFixed(1)), rowsPerSecond: Math.round(rows / seconds) };
  }
}

function report({ results, openLoop, overload, attacks, sync, soak, rssBefore, rssAfter }) {
  const machine =
    `${cpus().length} × ${cpus()[0].model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `Node ${serversNode} (the servers; the load generator on ${process.version})`;
  const date = new Date().toISOString();
  const pct = (r) => (r === null || r === undefined ? '-' : `${(r * 100).toFixed(0)}%`);
  const names = ['service', ...(baseline ? ['baseline'] : []), 'fair', 'floor'];
  const statuses = (counts) =>
    Object.entries(counts)
      .map(([code, n]) => `${n} × ${code}`)
      .join(', ');
  const md = [
    `Benchmark of ${date} on ${machine}: ${products} products in ${values.stores} ` +
      `stores (+ other tenants), ${connections} connections, ${warmup} s warm-up ` +
      `and ${duration} s per measurement` +
      (repeat > 1 ? ` (the median of ${repeat}, the servers taking turns).` : ', the servers taking turns.') +
      (image
        ? ` service: the image ${image}` +
          (baseline ? `; baseline: the image ${values['baseline-image']}` : '') +
          '; fair server and floor from the same image as the service (podman, host network).'
        : ` service: the build in ${values['service-dist']}` +
          (baseline ? `; baseline: the build in ${values['baseline-dist']}.` : '.')) +
      (values['service-env'] ? ` Service settings: ${values['service-env']}.` : '') +
      (baseline && values['baseline-env'] !== undefined
        ? ` Baseline settings: ${values['baseline-env'] || 'none'}.`
        : '') +
      (values['read-only']
        ? " Read-only run (--read-only): the polite client is tenant 01's bench key reading a product of its own, " +
          "the searchers tenants 02–11's keys searching their own products."
        : '') +
      ` Compression of the fair server: gzip level ${levels.gzip}, Brotli quality ${levels.brotli} (${levels.source}).`,
    '',
    '| scenario | server | req/s | p50 ms | p99 ms | node CPU µs/req | DB CPU µs/req | node + DB µs/req ' +
      '| bytes/answer | failed | req/s of fair |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.flatMap((r) =>
      names
        .filter((name) => r[name])
        .map((name) => {
          const m = r[name];
          const ofFair = r.fair.rps > 0 ? m.rps / r.fair.rps : null;
          return (
            `| ${r.scenario} | ${name} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.cpuUs} | ${m.dbUs} | ` +
            `${m.cpuUs + m.dbUs} | ${m.bytesPerRequest} | ${m.failed} | ${name === 'fair' ? '' : pct(ofFair)} |`
          );
        }),
    ),
    '',
    'req/s counts 2xx answers only; "failed" counts non-2xx answers and requests without an answer within 10 s. ' +
      "node CPU is the server process's (user + system) per request; DB CPU is the database backends' " +
      '(user + system, from /proc, summed over the sessions of the bench database; parallel workers not ' +
      'counted) per request; bytes/answer is what autocannon read per answer, headers included. ' +
      '"compressed" scenarios send `Accept-Encoding: gzip, br`.',
    '',
    ...(openLoop.length > 0
      ? [
          '| open loop (offered load) | rate/s | service p50 ms | service p99 ms | fair p50 ms | fair p99 ms |',
          '|---|---:|---:|---:|---:|---:|',
          ...openLoop.map(
            (o) =>
              `| ${o.scenario} | ${o.rate} | ${o.service.p50} | ${o.service.p99} | ${o.fair.p50} | ${o.fair.p99} |`,
          ),
          '',
        ]
      : []),
    ...(overload
      ? [
          '| overload: one product by id, 10 connections | alone p50 ms | alone p99 ms ' +
            '| under 100 searches p50 ms | p99 ms | by id failed | searches q=ab answered |',
          '|---|---:|---:|---:|---:|---:|---|',
          ...Object.entries(overload).map(
            ([name, o]) =>
              `| ${name} | ${o.alone.p50} | ${o.alone.p99} | ${o.underLoad.p50} | ${o.underLoad.p99} | ` +
              `${o.underLoad.failed} | ${statuses(o.searches.statuses)} |`,
          ),
          '',
        ]
      : []),
    ...(attacks
      ? [
          '| overload: attack (bench/attacks.mjs) | build | polite by id p50 ms | p99 ms | polite statuses ' +
            '| attack statuses | successes per searcher (spread from the mean) |',
          '|---|---|---:|---:|---|---|---|',
          ...Object.entries(attacks).flatMap(([build, byAttack]) =>
            Object.entries(byAttack).map(
              ([name, a]) =>
                `| ${name}: ${a.attack} | ${build} | ${a.polite.p50} | ${a.polite.p99} | ${statuses(a.polite.statuses)} ` +
                `| ${statuses(a.statuses)} | ${a.successes ? `${a.successes.join(' ')} (±${pct(a.spread)})` : ''} |`,
            ),
          ),
          '',
        ]
      : []),
    ...(sync
      ? [
          `Sync of the tenant (${sync.byCursor.rows} products, 100 per page, one client): full walk by next links ` +
            `${sync.byCursor.seconds} s (${sync.byCursor.rowsPerSecond} rows/s, page p50 ${sync.byCursor.p50Ms} ms, ` +
            `p99 ${sync.byCursor.p99Ms} ms); stock rows ${sync.stockWalk.seconds} s; by page numbers ` +
            `${sync.byPage.pages} pages in ${sync.byPage.seconds} s` +
            (sync.byPage.capped
              ? ` (stopped; the whole walk at that pace ${sync.byPage.projectedSeconds} s, slower in fact since deeper pages cost more).`
              : '.'),
          '',
          '| full walk of the products asking for gzip, br | seconds | rows/s | page p50 ms | page p99 ms | bodies as sent | encodings |',
          '|---|---:|---:|---:|---:|---:|---|',
          ...Object.entries(sync.compressed).map(
            ([name, w]) =>
              `| ${name} | ${w.seconds} | ${w.rowsPerSecond} | ${w.p50Ms} | ${w.p99Ms} | ${mb(w.bytes)} | ${w.encodings.join(', ')} |`,
          ),
          '',
          `Bytes on the wire (bodies) of the full copy, products + stock: ${mb(sync.byCursor.bytes)} + ` +
            `${mb(sync.stockWalk.bytes)} = ${mb(sync.byCursor.bytes + sync.stockWalk.bytes)} without compression; ` +
            `asking for gzip, br, the service sent ${mb(sync.compressed.service.bytes)} + ${mb(sync.compressedStock.bytes)} = ` +
            `${mb(sync.compressed.service.bytes + sync.compressedStock.bytes)} (${sync.compressed.service.encodings.join(', ')}); ` +
            `the fair server's products: ${mb(sync.compressed.fair.bytes)}.`,
          '',
          `VAT rate used by ${sync.vatEdit.productsOfRate} products (1%) edited (name and percentage): the edit's ` +
            `transaction ${sync.vatEdit.editMs} ms, ${sync.vatEdit.productsRewritten} product rows rewritten; the next ` +
            `incremental round (position from the first page of a walk taken before): ${sync.vatEdit.round.pages} ` +
            `requests, ${sync.vatEdit.round.rows} rows, ${sync.vatEdit.round.seconds} s.`,
          `Incremental round after ${sync.changed} products and ${sync.changed} stock ` +
            `levels changed: products ${sync.incremental.rows} rows in ${sync.incremental.seconds} ` +
            `s, stock ${sync.incrementalStock.rows} rows in ${sync.incrementalStock.seconds} ` +
            `s.`,
          '',
        ]
      : []),
    `Service RSS: ${rssBefore.toFixed(0)} MiB before, ${rssAfter.toFixed(0)} MiB after` +
      (soak
        ? `; soak of ${soak.seconds} s: ${soak.rssBeforeMiB.toFixed(0)} → ${soak.rssAfterMiB.toFixed(0)} MiB.`
        : '.'),
  ].join('\n');
  console.log(`\n${md}`);
  mkdirSync('bench/results', { recursive: true });
  const stamp = date.replace(/[:.]/g, '-');
  writeFileSync(
    `bench/results/${stamp}.json`,
    JSON.stringify(
      {
        date,
        machine,
        products,
        connections,
        levels,
        serviceDist: values['service-dist'],
        baselineDist: values['baseline-dist'] ?? null,
        duration,
        warmup,
        results,
        openLoop,
        overload,
        attacks,
        sync,
        soak,
        rssBefore,
        rssAfter,
      },
      null,
      2,
    ),
  );
  writeFileSync(`bench/results/${stamp}.md`, `${md}\n`);
  console.log(`\nWritten to bench/results/${stamp}.md`);
}
