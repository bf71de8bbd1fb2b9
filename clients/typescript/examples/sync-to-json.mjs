// @ts-check
/**
 * Keeps a local copy of a tenant's products and stock rows in a JSON file with
 * @catalog-inventory/client, by the lossless sync recipe. Run it again and again: the first run copies
 * everything, each later run applies what changed since the previous one and deletes what left the
 * key's view (deleted products, products moved to a store the key does not see, stores the key lost).
 * A full walk, which removes every row the service no longer returns, is only the safety net: when the
 * service refuses the stored position (after a restore, or a copy older than the removal records it
 * keeps), and with --full.
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
 * One round for one table: upsert what its changes walk yields, then delete what its removals walk
 * lists; after a full round, remove what it did not yield; then keep the round's position (readable
 * only once the round walked to its end).
 * @template Row, Removal
 * @param {string} name
 * @param {import('@catalog-inventory/client').SyncRound<any, any>} round
 * @param {Record<string, Row>} table
 * @param {(row: any) => string} keyOf a row's key, which its removal carries too
 */
async function apply(name, round, table, keyOf) {
  const seen = new Set();
  let removed = 0;
  const position = await round.apply({
    onRow: (row) => {
      table[keyOf(row)] = row;
      seen.add(keyOf(row));
    },
    onRemove: (removal) => {
      if (!(keyOf(removal) in table)) return;
      delete table[keyOf(removal)];
      removed++;
    },
  });
  if (round.full) {
    for (const key of Object.keys(table)) {
      if (seen.has(key)) continue;
      delete table[key];
      removed++;
    }
  }
  const kind = round.full ? 'full walk' : `changes since ${round.since}`;
  console.log(`${name}: ${kind}: ${seen.size} upserted, ${removed} removed, ${Object.keys(table).length} kept`);
  return position;
}

/** A round refused for its position (400 naming changedSince): only a full walk can go on from there. */
const refused = (/** @type {unknown} */ error) =>
  isApiError(error) && error.status === 400 && JSON.stringify(error.details ?? {}).includes('"changedSince"');

/**
 * A round from the stored position, or a full walk when there is none, --full is given or the service
 * refuses the position.
 * @param {string} name
 * @param {(position?: string) => import('@catalog-inventory/client').SyncRound<any, any>} start
 * @param {string | undefined} position
 * @param {Record<string, any>} table
 * @param {(row: any) => string} keyOf
 */
async function sync(name, start, position, table, keyOf) {
  try {
    return await apply(name, start(forceFull ? undefined : position), table, keyOf);
  } catch (error) {
    if (!refused(error)) throw error;
    console.log(`${name}: position refused (${/** @type {Error} */ (error).message}): full walk`);
    return apply(name, start(undefined), table, keyOf);
  }
}

const copy = load();
try {
  copy.positions.products = await sync(
    'products',
    (position) => client.sync.products(position),
    copy.positions.products,
    copy.products,
    (product) => product.id,
  );
  save(copy);
  copy.positions.stock = await sync(
    'stock',
    (position) => client.sync.stock(position),
    copy.positions.stock,
    copy.stock,
    (row) => row.productId,
  );
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
