import type { DataSource, EntityManager } from 'typeorm';
import { KEYS, testDataset } from './support/dataset.js';
import { listReads } from './support/list-reads.js';
import { seededRandom } from './support/sync-harness.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A differential test of incremental sync rounds that cannot forget an input. The writes it makes are
 * derived from what the committed list statements read (src/queries/products.repository.sql and
 * stock.repository.sql): every column of every table in their FROM and JOIN clauses gets random
 * writes, so a new join or a new visible column brings new writes without anyone remembering. Allow-list
 * changes and new stores are written too. After each write, for every key shape, one incremental round
 * from the position taken before the write must bring every row whose JSON changed and every row that
 * became visible: the copy (the state before, with the round's rows upserted) must then equal the
 * service's full state for every row the service shows.
 *
 * SYNC_DIFF_SEED=n replays a run; SYNC_DIFF_ROUNDS=n makes each kind of write n times (3 by default).
 */
const SEED = Number(process.env.SYNC_DIFF_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** How many times each kind of write is made (in a shuffled order). */
const ROUNDS = Number(process.env.SYNC_DIFF_ROUNDS ?? 3);

const LISTS = {
  products: { path: '/v1/catalog/products', file: 'products.repository.sql', idOf: (r: Row) => String(r.id) },
  stock: { path: '/v1/inventory/stock', file: 'stock.repository.sql', idOf: (r: Row) => String(r.productId) },
} as const;
type ListName = keyof typeof LISTS;
type Row = Record<string, unknown>;

/** Every shape of key a copy is kept with: all stores, a key limited to stores, one storeId. */
const SHAPES = {
  'all stores': { key: KEYS.tenantA, query: '' },
  'a key limited to stores': { key: KEYS.tenantAStore1, query: '' },
  'one storeId': { key: KEYS.tenantA, query: '&storeId=sto_a1' },
} as const;
type ShapeName = keyof typeof SHAPES;

/**
 * Columns no write changes, each with the reason: identities, the change markers themselves, a
 * generated column, and columns that always follow another one (a constraint or a trigger keeps them).
 */
const NOT_WRITTEN: Record<string, string> = {
  'products.id': 'the row identity',
  'products.tenant_id': 'the tenant identity (composite foreign keys tie every row to its tenant)',
  'products.change_xact': 'the change marker',
  'products.search_text': 'generated from name, sku, barcode and brand',
  'stock_levels.product_id': 'the row identity',
  'stock_levels.tenant_id': 'the tenant identity',
  'stock_levels.store_id':
    "always its product's store (foreign key ON UPDATE CASCADE): written through products.store_id",
  'stock_levels.change_xact': 'the change marker',
  'stock_levels.low_stock_threshold': 'mirrored from reorder_level by a trigger',
  'stock_levels.product_is_active': "always its product's is_active (a trigger): written through products.is_active",
  'vat_rates.id': 'the row identity',
  'vat_rates.tenant_id': 'the tenant identity',
  'vat_rates.change_xact': 'the change marker',
};
/**
 * Tables the list statements read that no write here makes directly: the totals' counts, and the
 * record of stores coming into a client's view, which the database writes when the scope writes
 * below widen an allow-list or create a store.
 */
const NOT_WRITTEN_DIRECTLY = new Set(['product_counts', 'api_client_store_grants']);

interface ColumnInfo {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  scale: number | null;
  precision: number | null;
  /** Allowed values from a CHECK (col IN (...)) constraint. */
  choices: string[] | null;
  /** The table a single-column foreign key (with the tenant) points at. */
  references: string | null;
}

/** One kind of write; `run` makes one and says what it did, for the failure message. */
interface Write {
  kind: string;
  run(db: EntityManager): Promise<string>;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset(), env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
});
afterAll(async () => t.close());

async function walk(path: string, key: string): Promise<{ rows: Row[]; position: string | null }> {
  const rows: Row[] = [];
  let position: string | null = null;
  let url: string | undefined = path;
  while (url !== undefined) {
    const res: { status: number; text: string; body: unknown; headers: Record<string, string> } = await t
      .http()
      .get(url)
      .set('Authorization', `Bearer ${key}`);
    if (res.status === 404) return { rows: [], position: null }; // the store is not the key's (any more)
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.text}`);
    rows.push(...(res.body as { rows: Row[] }).rows);
    position = res.headers['sync-position'] ?? position;
    url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
  }
  return { rows, position };
}

/** The copy a client keeps of one list with one key shape. */
interface Copy {
  rows: Map<string, Row>;
  position: string | null;
}

async function fullWalk(list: ListName, shape: ShapeName): Promise<Copy> {
  const { path, idOf } = LISTS[list];
  const { key, query } = SHAPES[shape];
  const { rows, position } = await walk(`${path}?activeOnly=false&pageSize=100${query}`, key);
  return { rows: new Map(rows.map((r) => [idOf(r), r])), position };
}

async function columnsRead(db: DataSource): Promise<ColumnInfo[]> {
  const read = new Map<string, Set<string>>();
  for (const { file } of Object.values(LISTS)) {
    for (const [table, columns] of listReads(file).columns) {
      if (NOT_WRITTEN_DIRECTLY.has(table)) continue;
      const set = read.get(table) ?? new Set();
      columns.forEach((c) => set.add(c));
      read.set(table, set);
    }
  }
  const info: ColumnInfo[] = [];
  for (const [table, columns] of read) {
    for (const column of columns) {
      const [c] = await db.query(
        `SELECT c.data_type AS type, c.is_nullable = 'YES' AS nullable, c.numeric_scale AS scale,
                c.numeric_precision AS precision,
                (SELECT pg_get_constraintdef(k.oid) FROM pg_constraint k
                  WHERE k.conrelid = $1::text::regclass AND k.contype = 'c'
                    AND pg_get_constraintdef(k.oid) ~ ('\\m' || $2::text || '\\M') LIMIT 1) AS "check",
                (SELECT k.confrelid::regclass::text FROM pg_constraint k
                   JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
                  WHERE k.conrelid = $1::text::regclass AND k.contype = 'f' AND a.attname = $2::text LIMIT 1) AS "references"
           FROM information_schema.columns c WHERE c.table_name = $1::text AND c.column_name = $2::text`,
        [table, column],
      );
      if (c === undefined) throw new Error(`${table}.${column}: named by a list statement, not in the schema`);
      const choices = c.check === null ? null : [...String(c.check).matchAll(/'([^']*)'/g)].map((m) => m[1]);
      info.push({
        table,
        column,
        type: c.type,
        nullable: c.nullable,
        scale: c.scale,
        precision: c.precision,
        choices: choices !== null && choices.length > 0 && !/~/.test(String(c.check)) ? choices : null,
        references: c.references,
      });
    }
  }
  return info;
}

/** The primary key column of a table the lists read, and the alias the tenant is found by. */
const KEY_OF: Record<string, string> = { products: 'id', stock_levels: 'product_id', vat_rates: 'id' };

function writers(columns: ColumnInfo[], random: () => number): { writes: Write[]; names: string[] } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const writes: Write[] = [];
  const names: string[] = [];
  const word = () => `w${Math.floor(random() * 1e9).toString(36)}`;
  for (const col of columns) {
    const name = `${col.table}.${col.column}`;
    if (NOT_WRITTEN[name] !== undefined) continue;
    const key = KEY_OF[col.table];
    if (key === undefined) throw new Error(`${col.table}: a table the lists read with no writer: add it to KEY_OF`);
    const value = async (db: EntityManager): Promise<unknown> => {
      if (col.references !== null) {
        const ids = (await db.query(`SELECT id FROM ${col.references} WHERE tenant_id = 'ten_a'`)) as { id: string }[];
        const options: (string | null)[] = ids.map((r) => r.id);
        if (col.nullable) options.push(null);
        return pick(options);
      }
      if (col.choices !== null) return pick(col.choices);
      if (col.nullable && random() < 0.15) return null;
      switch (col.type) {
        case 'boolean':
          return random() < 0.5;
        case 'numeric': {
          const digits = Math.min(5, (col.precision ?? 8) - (col.scale ?? 0));
          return ((random() - 0.2) * 10 ** digits).toFixed(col.scale ?? 0);
        }
        case 'integer':
          return Math.floor(random() * 1000);
        case 'timestamp with time zone':
          return new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 3e11)).toISOString();
        default:
          return `${word()} ${word()}`;
      }
    };
    names.push(name);
    writes.push({
      kind: name,
      run: async (db) => {
        const rows = (await db.query(`SELECT ${key} AS id FROM ${col.table} WHERE tenant_id = 'ten_a'`)) as {
          id: string;
        }[];
        const id = pick(rows).id;
        const v = await value(db);
        const described = `UPDATE ${col.table} SET ${col.column} = ${JSON.stringify(v)} WHERE ${key} = ${id}`;
        await db.query('SAVEPOINT write');
        try {
          await db.query(`UPDATE ${col.table} SET ${col.column} = $2 WHERE ${key} = $1`, [id, v]);
        } catch (error) {
          // A value that would repeat a unique key (a product moved to a store that has its SKU) is
          // refused by the schema: nothing was written, as a writer would see it.
          if ((error as { code?: string }).code !== '23505') throw error;
          await db.query('ROLLBACK TO SAVEPOINT write');
          return `${described}: refused (a unique key)`;
        }
        return described;
      },
    });
  }
  return { writes, names };
}

/** Rows come and go, stores open, and the key limited to stores is given other stores. */
function scopeWrites(random: () => number): Write[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const stores = async (db: EntityManager): Promise<string[]> =>
    ((await db.query(`SELECT id FROM stores WHERE tenant_id = 'ten_a' ORDER BY id`)) as { id: string }[]).map(
      (r) => r.id,
    );
  let created = 0;
  return [
    {
      kind: "the limited key's stores changed",
      run: async (db) => {
        // Stores of the tenant are added to the key's stores (or all stores, or fewer).
        const all = await stores(db);
        const choice = random();
        const allowed = choice < 0.2 ? null : all.filter(() => random() < 0.6);
        await db.query(`UPDATE api_clients SET allowed_store_ids = $1 WHERE id = 'cli_a_store1'`, [allowed]);
        return `cli_a_store1 allowed stores: ${JSON.stringify(allowed)}`;
      },
    },
    {
      kind: 'a store created',
      run: async (db) => {
        const id = `sto_a_new${++created}`;
        await db.query(`INSERT INTO stores (id, tenant_id, name) VALUES ($1, 'ten_a', $2)`, [id, `Store ${id}`]);
        return `store ${id} created`;
      },
    },
    {
      kind: 'a product inserted',
      run: async (db) => {
        const id = `prd_a_new${Math.floor(random() * 1e9)}`;
        const store = pick(await stores(db));
        await db.query(
          `INSERT INTO products (id, tenant_id, store_id, name, sku, unit_type, selling_price_gross, selling_price_net,
           tax_category, vat_rate_id, is_active, variable_price, age_restricted, alcohol_restricted,
           tobacco_restricted, vape_restricted, updated_at)
         VALUES ($1, 'ten_a', $2, $4, $4, 'item', 1.5, 1.25, 'STANDARD', 'vat_a_std', $3, false, false, false, false,
           false, '2001-01-01')`,
          [id, store, random() < 0.5, `New ${id}`],
        );
        return `product ${id} inserted in ${store}`;
      },
    },
    {
      kind: 'a stock level created',
      run: async (db) => {
        const [row] = (await db.query(
          `SELECT p.id FROM products p LEFT JOIN stock_levels s ON s.product_id = p.id
          WHERE p.tenant_id = 'ten_a' AND s.product_id IS NULL ORDER BY random() LIMIT 1`,
        )) as { id: string }[];
        if (row === undefined) return 'no product without a stock level';
        await db.query(
          `INSERT INTO stock_levels (product_id, tenant_id, store_id, track_stock, quantity, reorder_level,
           low_stock_threshold, updated_at)
         SELECT id, tenant_id, store_id, true, $2, 3, 3, '2001-01-01' FROM products WHERE id = $1`,
          [row.id, (random() * 10).toFixed(3)],
        );
        return `stock level of ${row.id} created`;
      },
    },
    {
      kind: 'a stock level deleted',
      run: async (db) => {
        const [row] = (await db.query(
          `SELECT product_id AS id FROM stock_levels WHERE tenant_id = 'ten_a' ORDER BY random() LIMIT 1`,
        )) as { id: string }[];
        await db.query(`DELETE FROM stock_levels WHERE product_id = $1`, [row.id]);
        return `stock level of ${row.id} deleted`;
      },
    },
  ];
}

describe('an incremental sync round after any write', () => {
  it('brings every row whose JSON changed and every row that became visible, for every key shape', async () => {
    const random = seededRandom(SEED);
    const columns = await columnsRead(t.db);
    const { writes, names } = writers(columns, random);
    // The derivation found what the rows are made of (a sanity check of the parser, not a list to keep).
    expect(names).toEqual(expect.arrayContaining(['products.name', 'vat_rates.percentage', 'stock_levels.quantity']));
    const all = [...writes, ...scopeWrites(random)];
    const copies = new Map<string, Copy>();
    const pairs = (Object.keys(LISTS) as ListName[]).flatMap((list) =>
      (Object.keys(SHAPES) as ShapeName[]).map((shape) => ({ list, shape, id: `${list} / ${shape}` })),
    );
    for (const p of pairs) copies.set(p.id, await fullWalk(p.list, p.shape));

    // Each kind of write ROUNDS times, in a random order.
    const deck = Array.from({ length: ROUNDS }, () => all).flat();
    for (let i = deck.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    const done: string[] = [];
    const failures: string[] = [];
    const missedBy = new Set<string>();
    for (const [n, write] of deck.entries()) {
      let described = '';
      await t.db
        .transaction(async (db) => {
          described = await write.run(db);
        })
        .catch((error: Error) => {
          throw new Error(`SYNC_DIFF_SEED=${SEED}: write ${n} (${write.kind}) failed: ${error.message}`, {
            cause: error,
          });
        });
      done.push(described);
      for (const p of pairs) {
        const before = copies.get(p.id)!;
        const after = await fullWalk(p.list, p.shape);
        const copy = new Map(before.rows);
        if (before.position !== null) {
          const { path, idOf } = LISTS[p.list];
          const { key, query } = SHAPES[p.shape];
          const url = `${path}?activeOnly=false&pageSize=100${query}&changedSince=${before.position}`;
          const round = await walk(url, key);
          for (const row of round.rows) copy.set(idOf(row), row);
        }
        const missed = [...after.rows]
          .filter(([id, row]) => JSON.stringify(copy.get(id)) !== JSON.stringify(row))
          .map(([id, row]) => ({ id, copy: copy.get(id) ?? null, service: row }));
        if (missed.length > 0) {
          missedBy.add(write.kind);
          failures.push(
            `${p.id}: after write ${n + 1} (${described}) the round missed ${missed.length} row(s): ` +
              JSON.stringify(missed.slice(0, 3)),
          );
        }
        copies.set(p.id, after);
      }
    }
    if (failures.length > 0) {
      throw new Error(
        `SYNC_DIFF_SEED=${SEED}: rows missed after writes of these kinds: ${[...missedBy].join('; ')}\n` +
          `${failures.slice(0, 10).join('\n')}\nthe writes, in order:\n  ${done.join('\n  ')}`,
      );
    }
  }, 300_000);
});
