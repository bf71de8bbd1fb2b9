import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { migrate } from '../../src/database/data-source-options.js';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { pgTool, type PostgresServer } from './postgres-server.js';
import type { Service } from './service.js';
import { idOf, nextLink, REMOVALS_ROUTES, ROUTES, type Route, type Row } from './sync-harness.js';

/**
 * The ways PostgreSQL writes the tables the synced lists read, as generators of operations, and the
 * oracle a copy kept by the sync recipe is judged by (docs/sync.md; issue 30).
 *
 * A write path is a form of writing: plain row DML, `INSERT … SELECT` of every column from a kept
 * copy, `COPY` listing every column, `TRUNCATE` then re-insert, `ALTER TABLE … DISABLE TRIGGER`,
 * `session_replication_role = replica` (also after a DISABLE/ENABLE cycle, which turns ENABLE ALWAYS
 * triggers back into ordinary ones), a stock level re-pointed to another product, and a data-only
 * dump, a mistaken delete and a restore (with and without `--disable-triggers`). Each operation of a
 * form is a sequence of steps; after each step the copies run a round of the recipe. The oracle, after
 * an operation: one more round, then either the copy equals a fresh full walk field by field, or the
 * round was refused with a `400` naming `changedSince` and the full walk it calls for makes it equal.
 * Never neither.
 *
 * The generators write whatever columns the tables have (they read the catalog), so a new marker
 * column or trigger is attacked as the old ones are.
 */

/** What the generators work with: a superuser's connections to the database the service reads. */
export interface WritePathContext {
  /** A superuser's pool on the database the service reads (the test's own server). */
  readonly db: pg.Pool;
  readonly server: PostgresServer;
  readonly database: string;
  readonly random: () => number;
  /** A folder the server's user may write (dump files). */
  readonly tempDir: string;
  /** The tenant written, its stores and the client limited to stores whose allow-list is changed. */
  readonly tenant: string;
  readonly stores: readonly string[];
  readonly limitedClient: string;
  /** A counter for unique names (kept tables, new ids). */
  serial: number;
}

/** One form of writing. `run` makes one operation: each `yield` is a step done, described. */
export interface WritePath {
  readonly name: string;
  readonly about: string;
  /** Whether every write of the form marks its rows: then no position may be refused after it. */
  readonly marked?: boolean;
  run(ctx: WritePathContext): AsyncGenerator<string, void, void>;
}

type Query = (sql: string, values?: unknown[]) => Promise<pg.QueryResult>;

const pick = <T>(ctx: WritePathContext, list: readonly T[]): T => list[Math.floor(ctx.random() * list.length)];

/** `n` distinct elements of `list`, in a random order. */
function pickSome<T>(ctx: WritePathContext, list: readonly T[], n: number): T[] {
  const rest = [...list];
  const chosen: T[] = [];
  while (chosen.length < n && rest.length > 0) chosen.push(rest.splice(Math.floor(ctx.random() * rest.length), 1)[0]);
  return chosen;
}

const literalList = (values: readonly string[]): string => values.map((v) => pg.escapeLiteral(v)).join(', ');

async function ids(q: Query, sql: string, values: unknown[] = []): Promise<string[]> {
  return (await q(sql, values)).rows.map((r: { id: string }) => r.id);
}

/** Every column an INSERT may name (not generated), in table order: what `INSERT … SELECT *` would carry. */
async function everyColumn(q: Query, table: string): Promise<string> {
  const { rows } = await q(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r: { column_name: string }) => `"${r.column_name}"`).join(', ');
}

/**
 * The columns a back office names when it inserts rows it knows: every column without a default. The
 * columns with one (the change markers, whatever the schema calls them) take it.
 */
async function dataColumns(q: Query, table: string): Promise<string> {
  const { rows } = await q(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' AND column_default IS NULL
      ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r: { column_name: string }) => `"${r.column_name}"`).join(', ');
}

const productsOf = (ctx: WritePathContext, q: Query, where = 'true'): Promise<string[]> =>
  ids(q, `SELECT id FROM products WHERE tenant_id = $1 AND (${where}) ORDER BY id`, [ctx.tenant]);

/** One plain row write, by kind; each returns what it did (or why it did nothing). */
type RowWrite = (ctx: WritePathContext, q: Query) => Promise<string>;

const money = (ctx: WritePathContext): string => (ctx.random() * 20 + 0.5).toFixed(2);
const quantity = (ctx: WritePathContext): string => (ctx.random() * 60 - 5).toFixed(3);

/** Plain row DML on every table the lists read, grouped by the table written. */
export const ROW_WRITES: Record<string, Record<string, RowWrite>> = {
  products: {
    async price(ctx, q) {
      const id = pick(ctx, await productsOf(ctx, q));
      const gross = money(ctx);
      await q(`UPDATE products SET selling_price_gross = $2, selling_price_net = $3, updated_at = $4 WHERE id = $1`, [
        id,
        gross,
        (Number(gross) / 1.2).toFixed(2),
        '2001-01-01',
      ]);
      return `UPDATE products SET selling_price_gross = ${gross} (old updated_at) WHERE id = ${id}`;
    },
    async name(ctx, q) {
      const id = pick(ctx, await productsOf(ctx, q));
      const name = `Renamed ${ctx.serial++}`;
      await q(`UPDATE products SET name = $2 WHERE id = $1`, [id, name]);
      return `UPDATE products SET name = '${name}' WHERE id = ${id}`;
    },
    async active(ctx, q) {
      const id = pick(ctx, await productsOf(ctx, q));
      await q(`UPDATE products SET is_active = NOT is_active WHERE id = $1`, [id]);
      return `UPDATE products SET is_active = NOT is_active WHERE id = ${id}`;
    },
    async move(ctx, q) {
      const id = pick(ctx, await productsOf(ctx, q));
      const [from] = (await q(`SELECT store_id FROM products WHERE id = $1`, [id])).rows;
      const to = pick(
        ctx,
        ctx.stores.filter((s) => s !== from.store_id),
      );
      try {
        await q(`UPDATE products SET store_id = $2 WHERE id = $1`, [id, to]);
      } catch (error) {
        if ((error as { code?: string }).code !== '23505') throw error;
        return `UPDATE products SET store_id = ${to} WHERE id = ${id}: refused (its SKU is taken there)`;
      }
      // What the foreign key's cascade does, written too: a session whose triggers do not fire (a
      // logical-replication apply worker) receives the cascaded change as a change of its own.
      await q(`UPDATE stock_levels SET store_id = $2 WHERE product_id = $1 AND store_id IS DISTINCT FROM $2`, [id, to]);
      return `UPDATE products SET store_id = ${to} WHERE id = ${id}`;
    },
    async insert(ctx, q) {
      const id = `prd_wp_${ctx.serial++}`;
      const store = pick(ctx, ctx.stores);
      await q(
        `INSERT INTO products (id, tenant_id, store_id, name, sku, unit_type, selling_price_gross, selling_price_net,
           tax_category, vat_rate_id, is_active, variable_price, age_restricted, alcohol_restricted,
           tobacco_restricted, vape_restricted, updated_at)
         VALUES ($1, $2, $3, $4, upper($4), 'item', 2.40, 2.00, 'STANDARD', 'vat_a_std', true, false, false, false,
           false, false, '2001-01-01')`,
        [id, ctx.tenant, store, id],
      );
      return `INSERT INTO products ${id} in ${store}`;
    },
    /** A product's id changed: the old id leaves every view (one without a stock level: no cascade to carry). */
    async rename(ctx, q) {
      const id = pick(
        ctx,
        await productsOf(
          ctx,
          q,
          `NOT EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = products.id)
             AND NOT EXISTS (SELECT 1 FROM stock_movements m WHERE m.product_id = products.id)`,
        ),
      );
      if (id === undefined) return 'no product to rename';
      const to = `prd_wp_${ctx.serial++}`;
      await q(`UPDATE products SET id = $2 WHERE id = $1`, [id, to]);
      return `UPDATE products SET id = ${to} WHERE id = ${id}`;
    },
    async delete(ctx, q) {
      const candidates = await productsOf(ctx, q, `id LIKE 'prd_a2_f%' OR id LIKE 'prd_wp_%'`);
      if (candidates.length < 60) return 'no product deleted (few left)';
      const id = pick(ctx, candidates);
      // Its stock level (and cost layers) first, as a logical-replication stream carries the cascade:
      // under session_replication_role = replica the foreign keys' cascades do not run, and an orphan
      // stock level would make every later restore of the stock tables fail on its foreign key.
      await q(`DELETE FROM stock_cost_layers WHERE product_id = $1`, [id]);
      await q(`DELETE FROM stock_levels WHERE product_id = $1`, [id]);
      await q(`DELETE FROM products WHERE id = $1`, [id]);
      return `DELETE FROM products WHERE id = ${id} (its stock level first)`;
    },
  },
  stock_levels: {
    async quantity(ctx, q) {
      const id = pick(
        ctx,
        await ids(q, `SELECT product_id AS id FROM stock_levels WHERE tenant_id = $1 ORDER BY 1`, [ctx.tenant]),
      );
      if (id === undefined) return 'no stock level to change';
      const value = quantity(ctx);
      await q(`UPDATE stock_levels SET quantity = $2, updated_at = '2001-01-01' WHERE product_id = $1`, [id, value]);
      return `UPDATE stock_levels SET quantity = ${value} WHERE product_id = ${id}`;
    },
    async track(ctx, q) {
      const id = pick(
        ctx,
        await ids(q, `SELECT product_id AS id FROM stock_levels WHERE tenant_id = $1 ORDER BY 1`, [ctx.tenant]),
      );
      if (id === undefined) return 'no stock level to change';
      await q(`UPDATE stock_levels SET track_stock = NOT track_stock WHERE product_id = $1`, [id]);
      return `UPDATE stock_levels SET track_stock = NOT track_stock WHERE product_id = ${id}`;
    },
    async create(ctx, q) {
      const id = pick(
        ctx,
        await productsOf(ctx, q, `NOT EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = products.id)`),
      );
      if (id === undefined) return 'no product without a stock level';
      const value = quantity(ctx);
      // Every column without a default, the product's activity included: a session whose triggers do
      // not fire (replication, disabled triggers) writes what a trigger would have.
      await q(
        `INSERT INTO stock_levels (product_id, tenant_id, store_id, track_stock, quantity, reorder_level,
           low_stock_threshold, updated_at, product_is_active)
         SELECT id, tenant_id, store_id, true, $2, 4, 4, '2001-01-01', is_active FROM products WHERE id = $1`,
        [id, value],
      );
      return `INSERT INTO stock_levels (${id}, quantity ${value})`;
    },
    async delete(ctx, q) {
      const id = pick(
        ctx,
        await ids(q, `SELECT product_id AS id FROM stock_levels WHERE tenant_id = $1 ORDER BY 1`, [ctx.tenant]),
      );
      if (id === undefined) return 'no stock level to delete';
      await q(`DELETE FROM stock_levels WHERE product_id = $1`, [id]);
      return `DELETE FROM stock_levels WHERE product_id = ${id}`;
    },
  },
  vat_rates: {
    async percentage(ctx, q) {
      const id = pick(ctx, await ids(q, `SELECT id FROM vat_rates WHERE tenant_id = $1 ORDER BY id`, [ctx.tenant]));
      const value = (ctx.random() * 25).toFixed(2);
      await q(`UPDATE vat_rates SET percentage = $2 WHERE id = $1`, [id, value]);
      return `UPDATE vat_rates SET percentage = ${value} WHERE id = ${id}`;
    },
    async name(ctx, q) {
      const id = pick(ctx, await ids(q, `SELECT id FROM vat_rates WHERE tenant_id = $1 ORDER BY id`, [ctx.tenant]));
      const name = `Rate ${ctx.serial++}`;
      await q(`UPDATE vat_rates SET name = $2 WHERE id = $1`, [id, name]);
      return `UPDATE vat_rates SET name = '${name}' WHERE id = ${id}`;
    },
  },
  api_clients: {
    /** The limited client is given every store (a widening unless it had them all). */
    async widen(ctx, q) {
      const view = ctx.random() < 0.5 ? null : [...ctx.stores];
      await q(`UPDATE api_clients SET allowed_store_ids = $2 WHERE id = $1`, [ctx.limitedClient, view]);
      return `UPDATE api_clients SET allowed_store_ids = ${JSON.stringify(view)} WHERE id = ${ctx.limitedClient}`;
    },
  },
  stores: {
    async create(ctx, q) {
      const id = `sto_wp_${ctx.serial++}`;
      await q(`INSERT INTO stores (id, tenant_id, name) VALUES ($1, $2, $3)`, [id, ctx.tenant, `Store ${id}`]);
      return `INSERT INTO stores ${id}`;
    },
  },
};

/** One plain row write of a random kind (on `table`, or on any table). */
function rowWrite(ctx: WritePathContext, q: Query, table?: string): Promise<string> {
  const kinds = Object.entries(ROW_WRITES)
    .filter(([t]) => table === undefined || t === table)
    .flatMap(([, writes]) => Object.values(writes));
  return pick(ctx, kinds)(ctx, q);
}

/**
 * Narrows the limited client to its first store and changes products of the others, as plain writes
 * (marked): the stores it will be given back hold rows its copy does not have as they are now.
 */
async function* narrowLimitedClient(ctx: WritePathContext, q: Query): AsyncGenerator<string> {
  await q(`UPDATE api_clients SET allowed_store_ids = $2 WHERE id = $1`, [ctx.limitedClient, [ctx.stores[0]]]);
  yield `UPDATE api_clients SET allowed_store_ids = ["${ctx.stores[0]}"] WHERE id = ${ctx.limitedClient}`;
  const others = await productsOf(ctx, q, `store_id <> ${pg.escapeLiteral(ctx.stores[0])}`);
  const changed = pickSome(ctx, others, 3);
  await q(`UPDATE products SET brand = $2 WHERE id = ANY($1)`, [changed, `Brand ${ctx.serial++}`]);
  yield `UPDATE products SET brand WHERE id IN (${changed.join(', ')}) (out of the limited client's view)`;
}

/** An operation's steps in one session of its own (released at the end, whatever happens). */
async function* inSession(
  ctx: WritePathContext,
  steps: (session: pg.PoolClient, q: Query) => AsyncGenerator<string>,
): AsyncGenerator<string> {
  const session = await ctx.db.connect();
  try {
    yield* steps(session, (sql, values) => session.query(sql, values));
  } finally {
    session.release();
  }
}

/** The products (and their stock levels) an operation keeps a copy of, then deletes and puts back. */
async function keepProducts(ctx: WritePathContext, q: Query, n: number): Promise<string[]> {
  return pickSome(ctx, await productsOf(ctx, q, `id LIKE 'prd_a%'`), n);
}

/**
 * The first steps of a put-back operation: kept data is written over (so the copy holds newer data
 * than what comes back), then the rows are deleted (products, cascading to their stock levels, or the
 * stock levels alone).
 */
async function* editThenDelete(
  ctx: WritePathContext,
  q: Query,
  chosen: string[],
  table: 'products' | 'stock_levels',
): AsyncGenerator<string> {
  const list = literalList(chosen);
  await q(
    `UPDATE products SET name = name || ' edited', selling_price_gross = selling_price_gross + 1 WHERE id IN (${list})`,
  );
  await q(`UPDATE stock_levels SET quantity = quantity + 7 WHERE product_id IN (${list})`);
  yield `UPDATE products SET name, price; UPDATE stock_levels SET quantity WHERE id IN (${chosen.join(', ')})`;
  if (table === 'products') await q(`DELETE FROM products WHERE id IN (${list})`);
  else await q(`DELETE FROM stock_levels WHERE product_id IN (${list})`);
  yield `DELETE FROM ${table} WHERE ${table === 'products' ? 'id' : 'product_id'} IN (${chosen.join(', ')})`;
}

/**
 * A VAT rate put back from a kept copy by an upsert of every column (a row a list reads that cannot
 * be deleted while products use it): `INSERT … SELECT … ON CONFLICT DO UPDATE` of every column.
 */
async function* upsertVatRate(ctx: WritePathContext, q: Query): AsyncGenerator<string> {
  const id = pick(ctx, await ids(q, `SELECT id FROM vat_rates WHERE tenant_id = $1 ORDER BY id`, [ctx.tenant]));
  const kept = `wp_kept_vat_${ctx.serial++}`;
  await q(`CREATE TABLE ${kept} AS SELECT * FROM vat_rates WHERE id = $1`, [id]);
  try {
    yield `CREATE TABLE ${kept} AS SELECT * FROM vat_rates WHERE id = ${id}`;
    await q(`UPDATE vat_rates SET percentage = percentage + 1, name = name || ' edited' WHERE id = $1`, [id]);
    yield `UPDATE vat_rates SET percentage, name WHERE id = ${id}`;
    const columns = await everyColumn(q, 'vat_rates');
    const excluded = columns
      .split(', ')
      .map((c) => `EXCLUDED.${c}`)
      .join(', ');
    await q(`INSERT INTO vat_rates (${columns}) SELECT ${columns} FROM ${kept}
      ON CONFLICT (id) DO UPDATE SET (${columns}) = ROW(${excluded})`);
    yield `INSERT INTO vat_rates (every column) SELECT every column FROM the kept copy ON CONFLICT DO UPDATE`;
  } finally {
    await q(`DROP TABLE IF EXISTS ${kept}`);
  }
}

/** Copies a query's rows out with COPY … TO STDOUT (text format). */
async function copyOut(session: pg.PoolClient, sql: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    session.query(copyTo(`COPY (${sql}) TO STDOUT`)),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

async function copyIn(session: pg.PoolClient, table: string, columns: string, data: Buffer): Promise<void> {
  await pipeline(Readable.from([data]), session.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`)));
}

/** A client program of the server's version against the database (pg_dump, pg_restore, psql). */
function tool(ctx: WritePathContext, command: string, args: string[]): Promise<string> {
  return pgTool(command, ['-h', '127.0.0.1', '-p', String(ctx.server.port), '-U', 'postgres', ...args]);
}

/** The tables a data-only dump of the stock takes: the stock levels and the cost layers that hang off them. */
const STOCK_TABLES = ['stock_levels', 'stock_cost_layers'];

/**
 * A data-only dump of the stock tables, a mistaken delete of every stock level, and a data-only
 * restore of the dump, with triggers disabled (what pg_dump's --disable-triggers writes) or on.
 */
async function* dumpDeleteRestore(ctx: WritePathContext, disableTriggers: boolean): AsyncGenerator<string> {
  const format = ctx.random() < 0.5 ? 'plain' : 'custom';
  const file = join(ctx.tempDir, `stock-${ctx.serial++}.${format === 'plain' ? 'sql' : 'dump'}`);
  const tables = STOCK_TABLES.flatMap((t) => ['-t', `public.${t}`]);
  const kept = `wp_restore_kept_${ctx.serial++}`;
  const keptLayers = `${kept}_layers`;
  const q: Query = (sql, values) => ctx.db.query(sql, values);
  // A copy of what the dump holds, to put the rows back if the restore fails (the rest of the run
  // goes on with its stock).
  await q(`CREATE TABLE ${kept} AS SELECT * FROM stock_levels`);
  await q(`CREATE TABLE ${keptLayers} AS SELECT * FROM stock_cost_layers`);
  try {
    await tool(ctx, 'pg_dump', [
      '-d',
      ctx.database,
      '--data-only',
      ...(format === 'custom' ? ['-Fc'] : disableTriggers ? ['--disable-triggers'] : []),
      ...tables,
      '-f',
      file,
    ]);
    const flags = format === 'custom' ? '-Fc ' : disableTriggers ? '--disable-triggers ' : '';
    yield `pg_dump --data-only ${flags}-t stock_levels -t stock_cost_layers`;
    for (let i = 0; i < 3; i++) yield await rowWrite(ctx, q, 'stock_levels');
    const { rowCount } = await q(`DELETE FROM stock_levels`);
    yield `DELETE FROM stock_levels (the mistake: ${rowCount} rows)`;
    const restore =
      format === 'plain'
        ? ['psql', ['-d', ctx.database, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', file]]
        : [
            'pg_restore',
            [
              '-d',
              ctx.database,
              '--data-only',
              '--exit-on-error',
              ...(disableTriggers ? ['--disable-triggers'] : []),
              file,
            ],
          ];
    const described = `${restore[0]} ${format === 'custom' && disableTriggers ? '--disable-triggers ' : ''}of the dump`;
    try {
      await tool(ctx, restore[0] as string, restore[1] as string[]);
    } catch (error) {
      // The stock comes back (as a back office would insert it) so that later operations have some.
      const columns = await dataColumns(q, 'stock_levels');
      await q(`DELETE FROM stock_levels`);
      await q(`INSERT INTO stock_levels (${columns}) SELECT ${columns} FROM ${kept}`);
      await q(`INSERT INTO stock_cost_layers SELECT * FROM ${keptLayers}`);
      const message = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim();
      throw new Error(`${described} failed: ${message.replace(/\s+/g, ' ').slice(0, 300)}`, { cause: error });
    }
    yield described;
    if (disableTriggers) yield* operatorMigrates(ctx);
  } finally {
    await q(`DROP TABLE IF EXISTS ${kept}, ${keptLayers}`);
  }
}

/**
 * The operator's documented step after triggers were switched off and on (docs/operations.md#backups-
 * and-restores): `npm run db:migrate` sets them back to fire ALWAYS. Until then every round is refused.
 */
async function* operatorMigrates(ctx: WritePathContext): AsyncGenerator<string> {
  await migrate({ url: ctx.server.url(ctx.database) });
  yield 'npm run db:migrate (the documented step after triggers were switched)';
}

/** The tables the lists read rows from, and those that decide what a client sees. */
const LIST_TABLES = ['products', 'stock_levels', 'vat_rates', 'api_clients', 'stores'];

/**
 * Writes of a session under session_replication_role = replica (what a logical-replication apply
 * worker runs under): row triggers that are not ENABLE ALWAYS do not fire.
 */
async function* replicaWrites(ctx: WritePathContext, q: Query): AsyncGenerator<string> {
  const grants = ctx.random() < 0.3;
  if (grants) yield* narrowLimitedClient(ctx, q);
  await q(`SET session_replication_role = replica`);
  try {
    yield `SET session_replication_role = replica`;
    if (grants) yield await ROW_WRITES.api_clients.widen(ctx, q);
    const n = 1 + Math.floor(ctx.random() * 3);
    for (let i = 0; i < n; i++) {
      const table = pick(ctx, ['products', 'products', 'stock_levels', 'stock_levels', 'vat_rates', 'stores']);
      yield await rowWrite(ctx, q, table);
    }
  } finally {
    await q(`RESET session_replication_role`);
  }
  yield `RESET session_replication_role`;
}

/** Every form of writing, each a generator of operations. */
export const WRITE_PATHS: readonly WritePath[] = [
  {
    name: 'row-dml',
    about: 'plain INSERT, UPDATE and DELETE of rows of every table the lists read (the control: marked today)',
    marked: true,
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const n = 2 + Math.floor(ctx.random() * 3);
      for (let i = 0; i < n; i++) yield await rowWrite(ctx, q);
    },
  },
  {
    name: 'insert-select',
    about:
      'products (or stock levels) put back with INSERT … SELECT of every column from a kept copy, old change ' +
      'markers included; or a VAT rate put back by an upsert of every column',
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      if (ctx.random() < 0.25) {
        yield* upsertVatRate(ctx, q);
        return;
      }
      const chosen = await keepProducts(ctx, q, 2 + Math.floor(ctx.random() * 4));
      const table = ctx.random() < 0.5 ? 'products' : 'stock_levels';
      const kept = `wp_kept_${ctx.serial++}`;
      const list = literalList(chosen);
      await q(`CREATE TABLE ${kept}_products AS SELECT * FROM products WHERE id IN (${list})`);
      await q(`CREATE TABLE ${kept}_stock AS SELECT * FROM stock_levels WHERE product_id IN (${list})`);
      try {
        yield `CREATE TABLE ${kept}_products/_stock AS SELECT * (a kept copy of ${chosen.join(', ')})`;
        yield* editThenDelete(ctx, q, chosen, table);
        if (table === 'products') {
          const columns = await everyColumn(q, 'products');
          await q(`INSERT INTO products (${columns}) SELECT ${columns} FROM ${kept}_products`);
        }
        const columns = await everyColumn(q, 'stock_levels');
        await q(`INSERT INTO stock_levels (${columns}) SELECT ${columns} FROM ${kept}_stock`);
        const tables = table === 'products' ? 'products and stock_levels' : 'stock_levels';
        yield `INSERT INTO ${tables} (every column) SELECT every column FROM the kept copy`;
      } finally {
        await q(`DROP TABLE IF EXISTS ${kept}_products, ${kept}_stock`);
      }
    },
  },
  {
    name: 'copy',
    about:
      'products (or stock levels) put back with COPY … FROM STDIN listing every column, old change markers included',
    async *run(ctx) {
      yield* inSession(ctx, async function* (session, q) {
        const chosen = await keepProducts(ctx, q, 2 + Math.floor(ctx.random() * 4));
        const table = ctx.random() < 0.5 ? 'products' : 'stock_levels';
        const list = literalList(chosen);
        const productColumns = await everyColumn(q, 'products');
        const stockColumns = await everyColumn(q, 'stock_levels');
        const products = await copyOut(session, `SELECT ${productColumns} FROM products WHERE id IN (${list})`);
        const stock = await copyOut(session, `SELECT ${stockColumns} FROM stock_levels WHERE product_id IN (${list})`);
        yield `COPY (SELECT every column FROM products, stock_levels of ${chosen.join(', ')}) TO STDOUT`;
        yield* editThenDelete(ctx, q, chosen, table);
        if (table === 'products') await copyIn(session, 'products', productColumns, products);
        await copyIn(session, 'stock_levels', stockColumns, stock);
        yield `COPY ${table === 'products' ? 'products and ' : ''}stock_levels (every column) FROM STDIN`;
      });
    },
  },
  {
    name: 'truncate',
    about: 'TRUNCATE of the stock tables, then some of the rows inserted again',
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const kept = `wp_truncate_kept_${ctx.serial++}`;
      await q(`CREATE TABLE ${kept} AS SELECT * FROM stock_levels`);
      try {
        const cascade = ctx.random() < 0.5;
        await q(cascade ? `TRUNCATE stock_levels CASCADE` : `TRUNCATE stock_levels, stock_cost_layers`);
        yield cascade ? `TRUNCATE stock_levels CASCADE` : `TRUNCATE stock_levels, stock_cost_layers`;
        const all = await ids(q, `SELECT product_id AS id FROM ${kept} ORDER BY 1`);
        const back = pickSome(ctx, all, Math.floor(all.length * (0.5 + ctx.random() * 0.4)));
        const columns = await dataColumns(q, 'stock_levels');
        await q(`INSERT INTO stock_levels (${columns}) SELECT ${columns} FROM ${kept} WHERE product_id = ANY($1)`, [
          back,
        ]);
        yield `INSERT INTO stock_levels ${back.length} of the ${all.length} rows again`;
      } finally {
        await q(`DROP TABLE IF EXISTS ${kept}`);
      }
    },
  },
  {
    name: 'disable-trigger',
    about: 'ALTER TABLE … DISABLE TRIGGER (USER or ALL) around writes, then ENABLE',
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const table = pick(ctx, ['products', 'stock_levels', 'vat_rates', 'api_clients']);
      const which = ctx.random() < 0.5 ? 'USER' : 'ALL';
      if (table === 'api_clients') yield* narrowLimitedClient(ctx, q);
      await q(`ALTER TABLE ${table} DISABLE TRIGGER ${which}`);
      try {
        yield `ALTER TABLE ${table} DISABLE TRIGGER ${which}`;
        const n = table === 'api_clients' ? 1 : 1 + Math.floor(ctx.random() * 3);
        for (let i = 0; i < n; i++) yield await rowWrite(ctx, q, table);
      } finally {
        await q(`ALTER TABLE ${table} ENABLE TRIGGER ${which}`);
      }
      yield `ALTER TABLE ${table} ENABLE TRIGGER ${which}`;
      yield* operatorMigrates(ctx);
    },
  },
  {
    name: 'replica-role',
    about:
      "writes in a session under SET session_replication_role = replica (a logical-replication apply worker's role)",
    run: (ctx) => inSession(ctx, (_session, q) => replicaWrites(ctx, q)),
  },
  {
    name: 'reenabled-then-replica',
    about:
      'DISABLE then ENABLE TRIGGER of the tables (as every restore with --disable-triggers does), with no write ' +
      'in between, then writes under session_replication_role = replica: ENABLE makes ALWAYS triggers ordinary again',
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const which = ctx.random() < 0.5 ? 'USER' : 'ALL';
      for (const table of LIST_TABLES) {
        await q(`ALTER TABLE ${table} DISABLE TRIGGER ${which}`);
        await q(`ALTER TABLE ${table} ENABLE TRIGGER ${which}`);
      }
      yield `ALTER TABLE ${LIST_TABLES.join(', ')} DISABLE TRIGGER ${which}, then ENABLE TRIGGER ${which}`;
      yield* inSession(ctx, (_session, inner) => replicaWrites(ctx, inner));
      yield* operatorMigrates(ctx);
    },
  },
  {
    name: 'repoint-stock',
    about: 'UPDATE stock_levels SET product_id = another product (of the same store, or of another with its store_id)',
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const from = pick(
        ctx,
        await ids(
          q,
          `SELECT product_id AS id FROM stock_levels s WHERE tenant_id = $1
              AND NOT EXISTS (SELECT 1 FROM stock_cost_layers c WHERE c.product_id = s.product_id) ORDER BY 1`,
          [ctx.tenant],
        ),
      );
      if (from === undefined) {
        yield 'no stock level to re-point';
        return;
      }
      const sameStore = ctx.random() < 0.6;
      const where = `NOT EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = products.id)
        AND (store_id = (SELECT store_id FROM stock_levels WHERE product_id = ${pg.escapeLiteral(from)})) = ${sameStore}`;
      let to = pick(ctx, await productsOf(ctx, q, where));
      if (to === undefined) {
        // Room is made first (a plain delete, marked): a product of the store without a stock level.
        const [victim] = pickSome(ctx, await productsOf(ctx, q, `id <> ${pg.escapeLiteral(from)}`), 1);
        await q(`DELETE FROM stock_levels WHERE product_id = $1`, [victim]);
        yield `DELETE FROM stock_levels WHERE product_id = ${victim}`;
        to = pick(ctx, await productsOf(ctx, q, where));
        if (to === undefined) {
          yield 'no product to re-point a stock level to';
          return;
        }
      }
      await q(
        `UPDATE stock_levels SET product_id = $2::text, store_id = (SELECT store_id FROM products WHERE id = $2::text)
          WHERE product_id = $1`,
        [from, to],
      );
      yield `UPDATE stock_levels SET product_id = ${to}${sameStore ? '' : ', store_id = its store'} WHERE product_id = ${from}`;
    },
  },
  {
    name: 'rename-product',
    about: 'UPDATE products SET id = a new id (its stock level follows by the foreign key cascade)',
    marked: true,
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const id = pick(
        ctx,
        await productsOf(
          ctx,
          q,
          `NOT EXISTS (SELECT 1 FROM stock_movements m WHERE m.product_id = products.id)
             AND NOT EXISTS (SELECT 1 FROM stock_cost_layers c WHERE c.product_id = products.id)`,
        ),
      );
      if (id === undefined) {
        yield 'no product to rename';
        return;
      }
      const to = `prd_wp_${ctx.serial++}`;
      await q(`UPDATE products SET id = $2 WHERE id = $1`, [id, to]);
      yield `UPDATE products SET id = ${to} WHERE id = ${id}`;
    },
  },
  {
    name: 'recreate-client',
    about:
      'the limited API client deleted and inserted again under its id (its keys too), with fewer stores: ' +
      'what db:import --replace does to the clients of its tenants',
    async *run(ctx) {
      yield* inSession(ctx, async function* (_session, q) {
        yield await ROW_WRITES.api_clients.widen(ctx, q);
        const kept = `wp_client_${ctx.serial++}`;
        await q(`BEGIN`);
        try {
          await q(`CREATE TEMP TABLE ${kept} ON COMMIT DROP AS SELECT * FROM api_clients WHERE id = $1`, [
            ctx.limitedClient,
          ]);
          await q(`CREATE TEMP TABLE ${kept}_keys ON COMMIT DROP AS SELECT * FROM api_keys WHERE client_id = $1`, [
            ctx.limitedClient,
          ]);
          // Made again with fewer stores: no narrowing of a row records what left its view.
          await q(`UPDATE ${kept} SET allowed_store_ids = $1`, [[ctx.stores[0]]]);
          await q(`DELETE FROM api_clients WHERE id = $1`, [ctx.limitedClient]);
          const clients = await everyColumn(q, 'api_clients');
          await q(`INSERT INTO api_clients (${clients}) SELECT ${clients} FROM ${kept}`);
          const keys = await everyColumn(q, 'api_keys');
          await q(`INSERT INTO api_keys (${keys}) SELECT ${keys} FROM ${kept}_keys`);
          await q(`COMMIT`);
        } catch (error) {
          await q(`ROLLBACK`);
          throw error;
        }
        yield `DELETE FROM api_clients ${ctx.limitedClient}; INSERT it and its keys again with allowed_store_ids ["${ctx.stores[0]}"]`;
      });
    },
  },
  {
    name: 'narrow-while-writing',
    about:
      "the limited client's stores narrowed in a transaction left open while another session inserts a product " +
      'into the store leaving its view',
    marked: true,
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      await q(`UPDATE api_clients SET allowed_store_ids = $2 WHERE id = $1`, [ctx.limitedClient, [...ctx.stores]]);
      yield `UPDATE api_clients SET allowed_store_ids = ${JSON.stringify(ctx.stores)} WHERE id = ${ctx.limitedClient}`;
      const narrowing = await ctx.db.connect();
      const writer = await ctx.db.connect();
      try {
        await narrowing.query(`BEGIN`);
        await narrowing.query(`UPDATE api_clients SET allowed_store_ids = $2 WHERE id = $1`, [
          ctx.limitedClient,
          [ctx.stores[0]],
        ]);
        yield `BEGIN; UPDATE api_clients SET allowed_store_ids = ["${ctx.stores[0]}"] WHERE id = ${ctx.limitedClient} (open)`;
        const leaving = ctx.stores[1];
        const inserted = `prd_wp_${ctx.serial++}`;
        // A product inserted there (a move from the store the client keeps is recorded as it leaves that one).
        const write = async (): Promise<string> => {
          await writer.query(
            `INSERT INTO products (id, tenant_id, store_id, name, sku, unit_type, selling_price_gross,
               selling_price_net, tax_category, vat_rate_id, is_active, variable_price, age_restricted,
               alcohol_restricted, tobacco_restricted, vape_restricted, updated_at)
             VALUES ($1, $2, $3, $4, upper($4), 'item', 2.40, 2.00, 'STANDARD', 'vat_a_std', true, false, false,
               false, false, false, '2001-01-01')`,
            [inserted, ctx.tenant, leaving, inserted],
          );
          return `INSERT INTO products ${inserted} in ${leaving}`;
        };
        // The writer may wait for the narrowing (it must not commit into the view the narrowing ends).
        const written = write().then(
          (done) => ({ done }),
          (error: unknown) => ({ error }),
        );
        const early = await Promise.race([written, new Promise((r) => setTimeout(r, 300, null))]);
        yield early === null
          ? 'another session writes into the store leaving the view: it waits'
          : 'another session wrote';
        await narrowing.query(`COMMIT`);
        yield 'COMMIT (the narrowing)';
        const outcome = await written;
        if ('error' in outcome) throw outcome.error;
        yield outcome.done;
      } finally {
        await narrowing.query(`ROLLBACK`).catch(() => undefined);
        narrowing.release();
        writer.release();
      }
    },
  },
  {
    name: 'replica-vat-delete',
    about:
      'a VAT rate that products show deleted under session_replication_role = replica (its foreign key does ' +
      'not fire there): the products now read vatRate null',
    marked: true,
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const id = `vat_wp_${ctx.serial++}`;
      await q(`INSERT INTO vat_rates (id, tenant_id, code, name, percentage) VALUES ($1, $2, $3, $4, 7.00)`, [
        id,
        ctx.tenant,
        id.toUpperCase(),
        `Rate ${id}`,
      ]);
      // Products nothing puts back from a kept copy later (they would fail on the deleted rate).
      for (let i = 0; i < 2; i++) await ROW_WRITES.products.insert(ctx, q);
      const shown = pickSome(ctx, await productsOf(ctx, q, `id LIKE 'prd_wp_%'`), 2);
      await q(`UPDATE products SET vat_rate_id = $2 WHERE id = ANY($1)`, [shown, id]);
      yield `INSERT INTO vat_rates ${id}; products ${shown.join(', ')} show it`;
      yield* inSession(ctx, async function* (_session, inner) {
        await inner(`SET session_replication_role = replica`);
        try {
          await inner(`DELETE FROM vat_rates WHERE id = $1`, [id]);
          yield `SET session_replication_role = replica; DELETE FROM vat_rates WHERE id = ${id}`;
        } finally {
          await inner(`RESET session_replication_role`);
        }
      });
    },
  },
  {
    name: 'replica-vat-rename',
    about:
      'a VAT rate that products show given another id or tenant under session_replication_role = replica (its ' +
      'foreign key does not fire there): the products now read vatRate null',
    marked: true,
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const id = `vat_wp_${ctx.serial++}`;
      await q(`INSERT INTO vat_rates (id, tenant_id, code, name, percentage) VALUES ($1, $2, $3, $4, 7.00)`, [
        id,
        ctx.tenant,
        id.toUpperCase(),
        `Rate ${id}`,
      ]);
      // Products nothing puts back from a kept copy later (they would fail on the renamed rate).
      for (let i = 0; i < 2; i++) await ROW_WRITES.products.insert(ctx, q);
      const shown = pickSome(ctx, await productsOf(ctx, q, `id LIKE 'prd_wp_%'`), 2);
      await q(`UPDATE products SET vat_rate_id = $2 WHERE id = ANY($1)`, [shown, id]);
      yield `INSERT INTO vat_rates ${id}; products ${shown.join(', ')} show it`;
      const [other] = await ids(q, `SELECT id FROM tenants WHERE id <> $1 ORDER BY id LIMIT 1`, [ctx.tenant]);
      const set = ctx.random() < 0.5 || other === undefined ? `id = '${id}_renamed'` : `tenant_id = '${other}'`;
      yield* inSession(ctx, async function* (_session, inner) {
        await inner(`SET session_replication_role = replica`);
        try {
          await inner(`UPDATE vat_rates SET ${set} WHERE id = $1`, [id]);
          yield `SET session_replication_role = replica; UPDATE vat_rates SET ${set} WHERE id = ${id}`;
        } finally {
          await inner(`RESET session_replication_role`);
        }
      });
    },
  },
  {
    name: 'fk-trigger-off',
    about:
      'a foreign key\'s internal trigger on vat_rates disabled (ALTER TABLE … DISABLE TRIGGER "RI_ConstraintTrigger_…"), ' +
      'a VAT rate that products show given another id, the trigger enabled again',
    async *run(ctx) {
      const q: Query = (sql, values) => ctx.db.query(sql, values);
      const id = `vat_wp_${ctx.serial++}`;
      await q(`INSERT INTO vat_rates (id, tenant_id, code, name, percentage) VALUES ($1, $2, $3, $4, 7.00)`, [
        id,
        ctx.tenant,
        id.toUpperCase(),
        `Rate ${id}`,
      ]);
      for (let i = 0; i < 2; i++) await ROW_WRITES.products.insert(ctx, q);
      const shown = pickSome(ctx, await productsOf(ctx, q, `id LIKE 'prd_wp_%'`), 2);
      await q(`UPDATE products SET vat_rate_id = $2 WHERE id = ANY($1)`, [shown, id]);
      yield `INSERT INTO vat_rates ${id}; products ${shown.join(', ')} show it`;
      const [{ tgname }] = (
        await q(`SELECT t.tgname FROM pg_trigger t JOIN pg_constraint c ON c.oid = t.tgconstraint
                  WHERE t.tgrelid = 'vat_rates'::regclass AND c.conrelid = 'products'::regclass
                    AND t.tgfoid = '"RI_FKey_noaction_upd"'::regproc`)
      ).rows as { tgname: string }[];
      await q(`ALTER TABLE vat_rates DISABLE TRIGGER "${tgname}"`);
      try {
        yield `ALTER TABLE vat_rates DISABLE TRIGGER "${tgname}"`;
        await q(`UPDATE vat_rates SET id = $2 WHERE id = $1`, [id, `${id}_renamed`]);
        yield `UPDATE vat_rates SET id = '${id}_renamed' WHERE id = ${id}`;
      } finally {
        await q(`ALTER TABLE vat_rates ENABLE TRIGGER "${tgname}"`);
      }
      yield `ALTER TABLE vat_rates ENABLE TRIGGER "${tgname}"`;
    },
  },
  {
    name: 'restore-disable-triggers',
    about: 'data-only pg_dump of the stock tables, a mistaken DELETE, a data-only restore with --disable-triggers',
    run: (ctx) => dumpDeleteRestore(ctx, true),
  },
  {
    name: 'restore-with-triggers',
    about: 'data-only pg_dump of the stock tables, a mistaken DELETE, a data-only restore with triggers on',
    run: (ctx) => dumpDeleteRestore(ctx, false),
  },
];

/** A folder the test's PostgreSQL server (run as its own user) can write dumps into. */
export function shareWithServer(dir: string): string {
  chmodSync(dir, 0o777);
  return dir;
}

/** Whether a response refuses a `changedSince` position (a 400 whose error details name it). */
export function refusesPosition(status: number, body: unknown): boolean {
  const errors = (body as { error?: { details?: { errors?: { name?: string }[] } } }).error?.details?.errors;
  return status === 400 && Array.isArray(errors) && errors.some((e) => e.name === 'changedSince');
}

export const PAGE_SIZE = 50;

/**
 * A copy of one list kept with one key by the recipe of docs/sync.md: a first copy, incremental
 * rounds with `changedSince`, a full walk now and then (which removes the rows it did not return),
 * and a full walk when a round's position is refused.
 */
export class SyncCopy {
  rows = new Map<string, Row>();
  position: string | null = null;
  refusals = 0;

  constructor(
    private readonly service: Service,
    readonly route: Route,
    readonly key: string,
    readonly label: string,
  ) {}

  /** One round: incremental from the stored position, else (or when `full`) a full walk. */
  async round(full = false): Promise<'full walk' | 'incremental' | 'refused, then a full walk'> {
    if (this.position === null || full) {
      await this.fullWalk();
      return 'full walk';
    }
    const walked = await this.walk(`&changedSince=${this.position}`);
    if (walked === 'refused') {
      this.refusals++;
      await this.fullWalk();
      return 'refused, then a full walk';
    }
    for (const row of walked.rows) this.rows.set(idOf(row), row);
    // Then the removals from the same position (docs/sync.md#the-recipe), before the new one is kept.
    this.removed = await this.removals(this.position);
    if (this.removed === 'refused') {
      this.refusals++;
      await this.fullWalk();
      return 'refused, then a full walk';
    }
    for (const id of this.removed) this.rows.delete(id);
    this.position = walked.position;
    return 'incremental';
  }

  /** The ids the last incremental round's removals walk listed. */
  removed: Set<string> | 'refused' = new Set();

  private async removals(since: string): Promise<Set<string> | 'refused'> {
    const ids = new Set<string>();
    let url: string | undefined = `${REMOVALS_ROUTES[this.route]}?pageSize=${PAGE_SIZE}&changedSince=${since}`;
    while (url !== undefined) {
      const res = await fetch(this.service.base + url, { headers: { Authorization: `Bearer ${this.key}` } });
      const body = (await res.json()) as { rows: Row[] };
      if (refusesPosition(res.status, body)) return 'refused';
      if (res.status !== 200) throw new Error(`${this.label}: GET ${url}: ${res.status} ${JSON.stringify(body)}`);
      for (const row of body.rows) ids.add(idOf(row));
      url = nextLink(res.headers.get('link'));
    }
    return ids;
  }

  /** Every row the service shows the key now (a walk of the list, not stored). */
  async fresh(): Promise<Map<string, Row>> {
    const walked = await this.walk('');
    if (walked === 'refused') throw new Error(`${this.label}: a walk without changedSince refused`);
    return new Map(walked.rows.map((row) => [idOf(row), row]));
  }

  private async fullWalk(): Promise<void> {
    const walked = await this.walk('');
    if (walked === 'refused') throw new Error(`${this.label}: a walk without changedSince refused`);
    this.rows = new Map(walked.rows.map((row) => [idOf(row), row]));
    this.position = walked.position;
  }

  private async walk(query: string): Promise<{ rows: Row[]; position: string } | 'refused'> {
    let url: string | undefined = `${ROUTES[this.route]}?activeOnly=false&pageSize=${PAGE_SIZE}${query}`;
    const rows: Row[] = [];
    let position: string | null = null;
    while (url !== undefined) {
      const res = await fetch(this.service.base + url, { headers: { Authorization: `Bearer ${this.key}` } });
      const body = (await res.json()) as { rows: Row[] };
      if (refusesPosition(res.status, body)) return 'refused';
      if (res.status !== 200) throw new Error(`${this.label}: GET ${url}: ${res.status} ${JSON.stringify(body)}`);
      rows.push(...body.rows);
      position = res.headers.get('sync-position') ?? position;
      url = nextLink(res.headers.get('link'));
    }
    if (position === null) throw new Error(`${this.label}: the walk handed out no Sync-Position`);
    return { rows, position };
  }
}

/** Rows a copy holds differently from the service (missing or with other values), described briefly. */
export function diffCopy(copy: Map<string, Row>, fresh: Map<string, Row>): { count: number; first: string[] } {
  const first: string[] = [];
  let count = 0;
  // Rows the copy still holds that the service no longer shows the key: a removal that never arrived.
  for (const id of copy.keys()) {
    if (fresh.has(id)) continue;
    count++;
    if (first.length < 4) first.push(`${id}: in the copy, no longer in the service's view`);
  }
  for (const [id, row] of fresh) {
    const held = copy.get(id);
    if (JSON.stringify(held) === JSON.stringify(row)) continue;
    count++;
    if (first.length >= 4) continue;
    if (held === undefined) {
      first.push(`${id}: not in the copy`);
      continue;
    }
    const fields = Object.keys({ ...held, ...row })
      .filter((f) => JSON.stringify(held[f]) !== JSON.stringify(row[f]))
      .map((f) => `${f} ${JSON.stringify(held[f])} (copy) vs ${JSON.stringify(row[f])} (service)`);
    first.push(`${id}: ${fields.join(', ')}`);
  }
  return { count, first };
}

/** What the oracle found for one copy. */
export interface Verdict {
  label: string;
  round: Awaited<ReturnType<SyncCopy['round']>>;
  differing: number;
  first: string[];
}

/**
 * The oracle: one more round of each copy (its changes, then its removals), then the copy must equal a
 * fresh full walk, field by field, with the same ids, and the round's removals feed must have listed
 * exactly the rows that left the view. A refused round is followed by the full walk it calls for,
 * which must make the copy equal too. Returns the verdicts of the copies that differ.
 */
export async function judge(copies: readonly SyncCopy[]): Promise<Verdict[]> {
  const wrong: Verdict[] = [];
  for (const copy of copies) {
    const before = new Set(copy.rows.keys());
    const round = await copy.round();
    const fresh = await copy.fresh();
    const { count, first } = diffCopy(copy.rows, fresh);
    // The removals feed lists exactly what left: every row the copy had that the view lost, and
    // nothing the view still shows.
    if (round === 'incremental' && copy.removed !== 'refused') {
      const left = [...before].filter((id) => !fresh.has(id));
      const removed = copy.removed;
      for (const id of left.filter((id) => !removed.has(id))) first.push(`${id}: left the view, not listed as removed`);
      for (const id of [...removed].filter((id) => fresh.has(id)))
        first.push(`${id}: listed as removed, still in view`);
    }
    const differing = count + first.length - Math.min(count, 4);
    if (differing > 0) wrong.push({ label: copy.label, round, differing, first: first.slice(0, 8) });
  }
  return wrong;
}

/**
 * The catalog the write paths work on, from the test data set: the fillers spread over both stores of
 * tenant A, and most products given a stock level (so that stock writes have rows to hit).
 */
export async function spreadCatalog(db: pg.Pool): Promise<void> {
  await db.query(`UPDATE products SET store_id = 'sto_a1'
    WHERE id LIKE 'prd_a2_f%' AND substring(id from 'f(\\d+)$')::int % 2 = 0`);
  await db.query(`INSERT INTO stock_levels (product_id, tenant_id, store_id, track_stock, quantity, reorder_level,
      low_stock_threshold, updated_at)
    SELECT id, tenant_id, store_id, true, (substring(id from 'f(\\d+)$')::int % 17) - 2, 5, 5, '2026-09-01'
      FROM products WHERE id LIKE 'prd_a2_f%' AND substring(id from 'f(\\d+)$')::int % 5 <> 4`);
}
