// @ts-check
/**
 * Keeps a local copy of a tenant's products and stock rows in a JSON file with
 * @catalog-inventory/client, by the lossless sync recipe. Run it again and again: the first run copies
 * everything, each later run applies what changed since the previous one. Every FULL_EVERY-th run
 * (and any run with --full) walks everything again and removes the rows the service no longer
 * returns, because deletions are not signalled.
 *
 *   node examples/sync-to-json.mjs [copy.json] [--full]
 *
 * CATALOG_BASE_URL (default http://localhost:3000) and CATALOG_API_KEY (default the demo data's ERP
 * key) say which service and key.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createClient, isApiError } from '@catalog-inventory/client';

/** @typedef {import('@catalog-inventory/client').Product} Product */
/** @typedef {import('@catalog-inventory/client').StockRow} StockRow */
/**
 * The copy: rows by key, the position to continue from, and how many runs it has seen.
 * @typedef {{
 *   products: Record<string, Product>,
 *   stock: Record<string, StockRow>,
 *   positions: { products?: string, stock?: string },
 *   runs: number,
 * }} Copy
 */

const FULL_EVERY = 24;
const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith('--')) ?? 'catalog-copy.json';
const forceFull = args.includes('--full');

const client = createClient({
  baseUrl: process.env.CATALOG_BASE_URL ?? 'http://localhost:3000',
  apiKey: process.env.CATALOG_API_KEY ?? 'ck_test_DemoErpSyncKey0000000000000000000001',
  onWait: ({ reason, delayMs }) => console.log(`  waiting ${Math.round(delayMs)} ms (${reason})`),
});

/** @returns {Copy} */
function load() {
  if (!existsSync(file)) return { products: {}, stock: {}, positions: {}, runs: 0 };
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Rows and position are written together, atomically: a crash never stores a position without its rows. */
function save(/** @type {Copy} */ copy) {
  writeFileSync(`${file}.tmp`, JSON.stringify(copy, null, 1));
  renameSync(`${file}.tmp`, file);
}

/**
 * One round for one table: upsert what the round yields; after a full round, remove what it did not
 * yield; then keep the round's position (readable only once the round walked to its end).
 * @template Row
 * @param {string} name
 * @param {AsyncIterable<Row> & { full: boolean, since: string | undefined, position: string }} round
 * @param {Record<string, Row>} table
 * @param {(row: Row) => string} keyOf
 */
async function apply(name, round, table, keyOf) {
  const seen = new Set();
  for await (const row of round) {
    table[keyOf(row)] = row;
    seen.add(keyOf(row));
  }
  let removed = 0;
  if (round.full) {
    for (const key of Object.keys(table)) {
      if (seen.has(key)) continue;
      delete table[key];
      removed++;
    }
  }
  const kind = round.full ? 'full walk' : `changes since ${round.since}`;
  console.log(`${name}: ${kind}: ${seen.size} upserted, ${removed} removed, ${Object.keys(table).length} kept`);
  return round.position;
}

const copy = load();
const full = forceFull || copy.runs % FULL_EVERY === 0;
try {
  const productRound = client.sync.products(full ? undefined : copy.positions.products);
  copy.positions.products = await apply('products', productRound, copy.products, (product) => product.id);
  save(copy);
  const stockRound = client.sync.stock(full ? undefined : copy.positions.stock);
  copy.positions.stock = await apply('stock', stockRound, copy.stock, (row) => row.productId);
  copy.runs++;
  save(copy);
  console.log(`${file}: run ${copy.runs}, positions ${copy.positions.products} and ${copy.positions.stock}`);
} catch (error) {
  // The copy keeps the position of the last complete round: the next run goes on from there.
  if (isApiError(error))
    console.error(`${error.code} (HTTP ${error.status}, request ${error.requestId}): ${error.message}`);
  else console.error(error);
  process.exitCode = 1;
}
