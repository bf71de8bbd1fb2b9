// npm run bench -- [--duration 10] [--connections 50] [--products 1000000] [--stores 50] [--soak 0]
//
// Starts the built service and the bare baseline (bench/bare-server.mjs) on the same data set and
// measures both, side by side, with autocannon running in a separate process. Prints a table and
// writes it to bench/results/ as JSON and Markdown. Uses DATABASE_URL, or the embedded database of
// npm start; generates the data set (db:generate) when the database does not hold one of that size.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    products: { type: 'string', default: '1000000' },
    stores: { type: 'string', default: '50' },
    tenants: { type: 'string', default: '20' },
    soak: { type: 'string', default: '0' },
    only: { type: 'string' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error(
    'Set DATABASE_URL to the PostgreSQL to benchmark on (for example ' +
      'postgres://postgres@127.0.0.1:5432/cia_bench); the data set is generated there when ' +
      'missing.',
  );
  process.exit(64);
}
const KEY = 'ck_test_BenchTenant00AllScopesKey000000000000000001';

async function ensureDataset() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const table = await client.query(`SELECT to_regclass('public.products') AS t`);
  let count = 0;
  if (table.rows[0].t)
    count = Number(
      (await client.query(`SELECT count(*) AS n FROM products WHERE tenant_id = 'ten_bench_00'`)).rows[0].n,
    );
  await client.end();
  if (count !== Number(values.products)) {
    console.log(`Generating ${values.products} products (found ${count})…`);
    execFileSync(process.execPath, ['dist/tools/cli/db-migrate.js'], { stdio: 'inherit', env: process.env });
    execFileSync(
      process.execPath,
      [
        'dist/tools/cli/db-generate.js',
        '--products',
        values.products,
        '--stores',
        values.stores,
        '--tenants',
        values.tenants,
      ],
      { stdio: 'inherit', env: process.env },
    );
  }
}

async function start(name, args, env) {
  const port = 3200 + Math.floor(Math.random() * 500);
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/health/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { name, child, base };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not start`);
}

const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** Waits until the database has no query left running (a timed-out request's query may outlive it). */
async function settle() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  for (let i = 0; i < 60; i++) {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    if (rows[0].n === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await client.end();
}

function autocannon(url, seconds) {
  const out = execFileSync(
    process.execPath,
    [
      'node_modules/autocannon/autocannon.js',
      '-c',
      String(connections),
      '-d',
      String(seconds),
      '-j',
      '-H',
      `Authorization=Bearer ${KEY}`,
      url,
    ],
    { maxBuffer: 64 << 20 },
  );
  const r = JSON.parse(out.toString());
  // Only 2xx answers count as served; the rest (non-2xx, errors and timeouts after 10 s) are "failed".
  return {
    rps: r['2xx'] / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors,
    total: r.requests.total,
  };
}

const ratioText = (ratio) => (ratio === null ? 'bare served none' : `${(ratio * 100).toFixed(0)}%`);

await ensureDataset();
const probe = new pg.Client({ connectionString: databaseUrl });
await probe.connect();
const common = (
  await probe.query(
    `SELECT split_part(name, ' ', 2) AS w FROM products WHERE tenant_id = 'ten_bench_00' AND id > 'prd_00_0000100' ORDER BY id LIMIT 1`,
  )
).rows[0].w.toLowerCase();
const recent = (
  await probe.query(
    `SELECT updated_at FROM products WHERE tenant_id = 'ten_bench_00' ORDER BY updated_at DESC OFFSET 20000 LIMIT 1`,
  )
).rows[0].updated_at.toISOString();
await probe.end();
const rareSku = String(Math.floor(Number(values.products) * 0.61))
  .padStart(7, '0')
  .slice(0, 6);

const scenarios = [
  ['products page 1', '/v1/catalog/products?pageSize=100'],
  [
    'products deep page (5000)',
    `/v1/catalog/products?pageSize=100&page=${Math.max(1, Math.floor(Number(values.products) / 200))}`,
  ],
  [`q common word ("${common}")`, `/v1/catalog/products?pageSize=100&q=${encodeURIComponent(common)}`],
  [`q rare SKU fragment ("${rareSku}")`, `/v1/catalog/products?pageSize=100&q=${rareSku}`],
  ['q 2-character term ("ol")', '/v1/catalog/products?pageSize=100&q=ol'],
  ['updatedSince sync walk', `/v1/catalog/products?pageSize=100&updatedSince=${encodeURIComponent(recent)}`],
  ['stock lowStockOnly', '/v1/inventory/stock?pageSize=100&lowStockOnly=true'],
  ['stock page 1', '/v1/inventory/stock?pageSize=100'],
  ['categories', '/v1/catalog/categories'],
  ['promotions', '/v1/catalog/promotions'],
  // The floor of each server: one row by primary key, and no work at all (no key, no database).
  ['one product by id', '/v1/catalog/products/prd_00_0500000'],
  ['no work (/health/live)', '/health/live'],
].filter(([name]) => !values.only || name.includes(values.only));

const service = await start('service', ['dist/main.js'], {
  LOG_LEVEL: 'warn',
  DOCS_ENABLED: 'false',
  APP_ENV: 'development',
  DB_POOL_SIZE: '10',
});
const bare = await start('bare', ['bench/bare-server.mjs'], { DB_POOL_SIZE: '10' });
const rssBefore = rss(service.child.pid);
const results = [];
try {
  for (const [name, path] of scenarios) {
    const row = { scenario: name, path };
    // Warm both first, so that neither is measured on a colder database cache than the other.
    for (const server of [service, bare]) autocannon(`${server.base}${path}`, 2);
    for (const server of [service, bare]) {
      await settle();
      row[server.name] = autocannon(`${server.base}${path}`, duration);
    }
    row.ratio = row.bare.rps > 0 ? row.service.rps / row.bare.rps : null;
    results.push(row);
    console.log(
      `${name.padEnd(34)} service ${row.service.rps.toFixed(0).padStart(6)} rps ` +
        `p50 ${String(row.service.p50).padStart(4)} ms p99 ${String(row.service.p99).padStart(5)} ` +
        `ms failed ${row.service.failed} | bare ${row.bare.rps.toFixed(0).padStart(6)} ` +
        `rps p50 ${String(row.bare.p50).padStart(4)} ms p99 ${String(row.bare.p99).padStart(5)} ` +
        `ms failed ${row.bare.failed} | ${ratioText(row.ratio)}`,
    );
  }
  let soak = null;
  if (Number(values.soak) > 0) {
    const before = rss(service.child.pid);
    autocannon(`${service.base}/v1/catalog/products?pageSize=100&page=3`, Number(values.soak));
    soak = { seconds: Number(values.soak), rssBeforeMiB: before, rssAfterMiB: rss(service.child.pid) };
  }
  const rssAfter = rss(service.child.pid);
  const machine = `${cpus().length} × ${cpus()[0].model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const report = {
    date: new Date().toISOString(),
    machine,
    products: Number(values.products),
    stores: Number(values.stores),
    duration,
    connections,
    rssBeforeMiB: rssBefore,
    rssAfterMiB: rssAfter,
    soak,
    results,
  };
  const soakText = soak
    ? `; soak of ${soak.seconds} s: ${soak.rssBeforeMiB.toFixed(0)} → ${soak.rssAfterMiB.toFixed(0)} MiB`
    : '';
  const md = [
    `Benchmark of ${report.date} on ${machine}: ${values.products} products in ` +
      `${values.stores} stores (+ other tenants), ${connections} connections, ${duration} ` +
      `s per scenario.`,
    '',
    '| scenario | service req/s | p50 ms | p99 ms | failed | bare req/s | p50 ms | p99 ms | failed | service/bare |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.scenario} | ${r.service.rps.toFixed(0)} | ${r.service.p50} | ${r.service.p99} ` +
        `| ${r.service.failed} | ${r.bare.rps.toFixed(0)} | ${r.bare.p50} | ${r.bare.p99} ` +
        `| ${r.bare.failed} | ${ratioText(r.ratio)} |`,
    ),
    '',
    'req/s counts 2xx answers only; "failed" counts non-2xx answers and requests that got no answer within 10 s.',
    '',
    `Service RSS: ${rssBefore.toFixed(0)} MiB before, ${rssAfter.toFixed(0)} MiB after${soakText}.`,
  ].join('\n');
  console.log(`\n${md}`);
  mkdirSync('bench/results', { recursive: true });
  const stamp = report.date.replace(/[:.]/g, '-');
  writeFileSync(`bench/results/${stamp}.json`, JSON.stringify(report, null, 2));
  writeFileSync(`bench/results/${stamp}.md`, `${md}\n`);
  writeFileSync('bench/results/latest.md', `${md}\n`);
} finally {
  service.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
}
