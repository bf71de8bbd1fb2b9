// node bench/removals-cost.mjs   (DATABASE_URL: the data set of `npm run bench`, 1M products of ten_bench_00)
//
// What removals cost on the 1M data set (docs/sync.md#removals), with the service (dist/main.js):
// - the round after deleting 1% of the products: its changes walk and its removals walk (requests,
//   rows, seconds), pageSize 100;
// - the round after narrowing a key by one store: the same;
// - the storage of a million removal records (sync_removals), and the time to prune them with the
//   service's own pruning (SyncHousekeeping, batches of 10,000).
// The data set is put back at the end (the deleted products re-inserted, the key's stores restored,
// the synthetic records removed), so that the other benchmarks keep their figures.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { untilLive } from './until-live.mjs';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL names the database with the bench data set');
const KEY = 'ck_test_BenchTenant00AllScopesKey000000000000000001';
const TENANT = 'ten_bench_00';

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM products WHERE tenant_id = $1`, [TENANT])).rows;
if (n < 100_000) throw new Error(`${TENANT} has ${n} products: generate the 1M data set first (npm run bench)`);
const [{ client }] = (
  await db.query(
    `SELECT c.id AS client FROM api_clients c WHERE c.tenant_id = $1 AND c.allowed_store_ids IS NULL ORDER BY id LIMIT 1`,
    [TENANT],
  )
).rows;

const port = 3200 + Math.floor(Math.random() * 700);
const child = spawn(process.execPath, ['dist/main.js'], {
  env: {
    PATH: process.env.PATH,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
process.on('exit', () => child.kill('SIGTERM'));
const base = `http://127.0.0.1:${port}`;
await untilLive(base);

/** A walk from `path`, following Link: requests, rows, seconds, and the first page's Sync-Position. */
async function walk(path) {
  const start = process.hrtime.bigint();
  let url = path;
  let requests = 0;
  let rows = 0;
  let position = null;
  while (url) {
    const res = await fetch(base + url, { headers: { Authorization: `Bearer ${KEY}` } });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    const body = await res.json();
    requests++;
    rows += body.rows.length;
    position ??= res.headers.get('sync-position');
    url = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return { requests, rows, seconds: Number(process.hrtime.bigint() - start) / 1e9, position };
}

/** The first page of a full walk: where a round would start from. */
async function position() {
  const res = await fetch(`${base}/v1/catalog/products?activeOnly=false&pageSize=1`, {
    headers: { Authorization: `Bearer ${KEY}` },
  });
  return res.headers.get('sync-position');
}

async function round(since) {
  const changes = await walk(`/v1/catalog/products?activeOnly=false&pageSize=100&changedSince=${since}`);
  const removals = await walk(`/v1/catalog/product-removals?pageSize=100&changedSince=${since}`);
  return { changes, removals };
}

const lines = [`# Removals on the 1M data set (${new Date().toISOString()})`, ''];
const row = (name, r) =>
  `| ${name} | ${r.changes.requests} / ${r.changes.rows} / ${r.changes.seconds.toFixed(2)} | ` +
  `${r.removals.requests} / ${r.removals.rows} / ${r.removals.seconds.toFixed(2)} |`;
lines.push('| round | changes walk: requests / rows / s | removals walk: requests / rows / s |', '|---|---|---|');

// 1% of the products deleted.
await db.query(`CREATE TEMP TABLE bench_deleted AS SELECT * FROM products WHERE tenant_id = $1 AND random() < 0.01`, [
  TENANT,
]);
await db.query(
  `CREATE TEMP TABLE bench_deleted_stock AS SELECT s.* FROM stock_levels s JOIN bench_deleted d ON d.id = s.product_id`,
);
let since = await position();
await db.query(`DELETE FROM products WHERE id IN (SELECT id FROM bench_deleted)`);
const deleted = await round(since);
lines.push(row(`after deleting 1% of the products (${deleted.removals.rows} rows)`, deleted));

// The key narrowed by one store (from all of its tenant's stores, listed).
await db.query(
  `UPDATE api_clients SET allowed_store_ids = ARRAY(SELECT id FROM stores WHERE tenant_id = $1 ORDER BY id) WHERE id = $2`,
  [TENANT, client],
);
since = await position();
await db.query(
  `UPDATE api_clients SET allowed_store_ids = ARRAY(SELECT id FROM stores WHERE tenant_id = $1 ORDER BY id OFFSET 1) WHERE id = $2`,
  [TENANT, client],
);
const narrowed = await round(since);
lines.push(row('after narrowing the key by one store', narrowed));

// A million removal records: their size, and pruning them.
const size = async () =>
  Number((await db.query(`SELECT pg_total_relation_size('sync_removals')::bigint AS s`)).rows[0].s);
const before = await size();
await db.query(
  `INSERT INTO sync_removals (tenant_id, store_id, product_id, removed_at)
  SELECT $1, 'sto_bench_removed', 'prd_bench_removed_' || g, now() - interval '400 days' FROM generate_series(1, 1000000) g`,
  [TENANT],
);
await db.query('VACUUM ANALYZE sync_removals');
const million = (await size()) - before;
const { SyncHousekeeping } = await import('../dist/database/sync-housekeeping.js');
const { createDataSource } = await import('../dist/database/data-source-options.js');
const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
await ds.initialize();
const start = process.hrtime.bigint();
const pruned = await new SyncHousekeeping(ds, { syncRemovalsRetentionDays: 35 }).prune();
const pruneSeconds = Number(process.hrtime.bigint() - start) / 1e9;
await ds.destroy();

lines.push(
  '',
  `A million removal records (sync_removals, with its indexes): ${(million / 2 ** 20).toFixed(0)} MiB ` +
    `(${(million / 1e6).toFixed(0)} bytes per record).`,
  `Pruning them (batches of 10,000): ${pruned} records in ${pruneSeconds.toFixed(1)} s.`,
  '',
);

// Put the data set back.
await db.query(`UPDATE api_clients SET allowed_store_ids = NULL WHERE id = $1`, [client]);
const columns = (
  await db.query(`SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) AS c FROM information_schema.columns
    WHERE table_name = 'products' AND is_generated = 'NEVER'`)
).rows[0].c;
await db.query(`INSERT INTO products (${columns}) SELECT ${columns} FROM bench_deleted`);
await db.query(`INSERT INTO stock_levels SELECT * FROM bench_deleted_stock`);
await db.query(`DELETE FROM sync_removals WHERE tenant_id = $1`, [TENANT]);
await db.query(`DELETE FROM client_removals WHERE tenant_id = $1`, [TENANT]);
await db.end();

console.log(lines.join('\n'));
mkdirSync('bench/results', { recursive: true });
const file = `bench/results/removals-cost-${new Date().toISOString().replace(/[:.]/g, '-')}.md`;
writeFileSync(file, lines.join('\n'));
console.log(`Written to ${file}`);
process.exit(0);
