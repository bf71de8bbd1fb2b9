import type { DataSource, EntityManager } from 'typeorm';

/** One change made by `npm run dev:changes`, as the command reports it. */
export interface DevChange {
  kind: 'deletion' | 'move' | 'price' | 'deactivation' | 'stock' | 'vat_rate';
  /** A product id (deletion, move, price, deactivation, stock) or a VAT rate id. */
  id: string;
  from: string;
  to: string;
}

export interface DevChangeCounts {
  deletions: number;
  moves: number;
  prices: number;
  deactivations: number;
  stockLevels: number;
  vatRates: number;
}

export const DEFAULT_DEV_CHANGES: DevChangeCounts = {
  deletions: 1,
  moves: 1,
  prices: 3,
  deactivations: 1,
  stockLevels: 3,
  vatRates: 1,
};

/**
 * A few changes to one tenant's data, as the back office would make them (each write sets
 * `updated_at`, the triggers set the change markers and record removals), so that a newcomer can
 * watch an incremental sync round bring them: a product deleted and a product moved to another store
 * of the tenant (the round's removals walk lists the first, and the second for a view without its
 * new store), prices of active products (the net price follows the VAT rate), products switched off,
 * stock quantities (never below zero), and a non-zero VAT rate's percentage moved by 2.5 points
 * (which changes every product using it, with no write to those products). Each product is changed
 * once. One transaction: all of them or none.
 *
 * The same seed on the same data makes the same changes (docs/sync.md's sample): rows are picked in
 * an order the seed sets, and every amount comes from a generator the seed starts.
 */
export async function makeDevChanges(
  db: DataSource,
  tenantId: string,
  seed: number,
  counts: DevChangeCounts = DEFAULT_DEV_CHANGES,
): Promise<DevChange[]> {
  const random = seededRandom(seed);
  const randomInt = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
  const pick = (tx: EntityManager, what: keyof typeof CANDIDATES, count: number, except: string[] = []) =>
    pickRows(tx, what, tenantId, count, `${seed}:${what}`, except);
  return db.transaction(async (tx) => {
    const changes: DevChange[] = [];
    const touched = (): string[] => changes.map((c) => c.id);
    for (const row of await pick(tx, 'deletion', counts.deletions)) {
      const { from, to } = returned(
        await tx.query(`DELETE FROM products WHERE id = $1 RETURNING store_id AS "from", 'deleted' AS "to"`, [row]),
      );
      changes.push({ kind: 'deletion', id: row, from, to });
    }
    for (const row of await pick(tx, 'move', counts.moves, touched())) {
      const { from, to } = returned(
        await tx.query(
          // To another store of the tenant (the seed picks which); a SKU is unique per store: one the
          // new store already has takes the product id as a suffix.
          `WITH target AS (
             SELECT s.id FROM stores s JOIN products o ON o.tenant_id = s.tenant_id AND o.store_id <> s.id
              WHERE o.id = $1 ORDER BY md5(s.id || $2), s.id LIMIT 1)
           UPDATE products p SET updated_at = now(), store_id = target.id,
                  sku = CASE WHEN EXISTS (SELECT 1 FROM products q WHERE q.store_id = target.id AND q.sku = p.sku)
                             THEN p.sku || '-' || p.id ELSE p.sku END
             FROM target, products old WHERE p.id = $1 AND old.id = p.id
          RETURNING old.store_id AS "from", p.store_id AS "to"`,
          [row, `${seed}:store`],
        ),
      );
      changes.push({ kind: 'move', id: row, from, to });
    }
    for (const row of await pick(tx, 'price', counts.prices, touched())) {
      // 5 to 15 % up or down.
      const factor = 1 + (randomInt(5, 15) / 100) * (random() < 0.5 ? -1 : 1);
      changes.push(await changePrice(tx, row, factor));
    }
    const priced = new Set(changes.map((c) => c.id));
    const toDeactivate = (await pick(tx, 'deactivation', counts.deactivations + counts.prices, touched()))
      .filter((id) => !priced.has(id))
      .slice(0, counts.deactivations);
    for (const row of toDeactivate) {
      await tx.query(`UPDATE products SET is_active = false, updated_at = now() WHERE id = $1`, [row]);
      changes.push({ kind: 'deactivation', id: row, from: 'active', to: 'inactive' });
    }
    for (const row of await pick(tx, 'stock', counts.stockLevels, touched())) {
      // A sale or a delivery of 1 to 20 units; a sale larger than what is there is a delivery (onto
      // nothing, when the level was already below zero: a delivery to an oversold level after runs
      // of sales must not leave it below zero).
      const delta = randomInt(1, 20) * (random() < 0.5 ? -1 : 1);
      const { from, to } = returned(
        await tx.query(
          `UPDATE stock_levels s
              SET quantity = CASE WHEN s.quantity + $2 < 0 THEN GREATEST(s.quantity, 0) + abs($2)
                                  ELSE s.quantity + $2 END,
                  updated_at = now()
             FROM stock_levels old
          WHERE s.product_id = $1 AND old.product_id = s.product_id
          RETURNING old.quantity::text AS "from", s.quantity::text AS "to"`,
          [row, delta],
        ),
      );
      changes.push({ kind: 'stock', id: row, from, to });
    }
    for (const row of await pick(tx, 'vat_rate', counts.vatRates)) {
      // 2.5 points up or down, as a government changes a rate (20 to 17.5, 5 to 7.5); never to zero.
      const step = random() < 0.5 ? -2.5 : 2.5;
      const { from, to } = returned(
        await tx.query(
          `UPDATE vat_rates v
              SET percentage = CASE WHEN v.percentage + $2 <= 0 THEN v.percentage - $2 ELSE v.percentage + $2 END
             FROM vat_rates old
          WHERE v.id = $1 AND old.id = v.id RETURNING old.percentage::text AS "from", v.percentage::text AS "to"`,
          [row, step],
        ),
      );
      changes.push({ kind: 'vat_rate', id: row, from, to });
    }
    return changes;
  });
}

/** What each kind of change may pick: products, active ones, tracked stock, a non-zero VAT rate in use. */
const CANDIDATES = {
  deletion: { table: 'products', key: 'id', condition: '' },
  // Only where its tenant has another store.
  move: {
    table: 'products',
    key: 'id',
    condition:
      'AND EXISTS (SELECT 1 FROM stores s WHERE s.tenant_id = products.tenant_id AND s.id <> products.store_id)',
  },
  price: { table: 'products', key: 'id', condition: 'AND is_active' },
  deactivation: { table: 'products', key: 'id', condition: 'AND is_active' },
  stock: { table: 'stock_levels', key: 'product_id', condition: 'AND track_stock' },
  // A zero rate stays zero, and a rate no product uses would change nothing a client sees.
  vat_rate: {
    table: 'vat_rates',
    key: 'id',
    condition: 'AND percentage > 0 AND EXISTS (SELECT 1 FROM products p WHERE p.vat_rate_id = vat_rates.id)',
  },
} as const;

/** Ids of `count` rows of the tenant that the change may pick, none of `except`, in an order `salt` sets. */
async function pickRows(
  tx: EntityManager,
  what: keyof typeof CANDIDATES,
  tenantId: string,
  count: number,
  salt: string,
  except: string[],
): Promise<string[]> {
  if (count === 0) return [];
  const { table, key, condition } = CANDIDATES[what];
  const rows: { id: string }[] = await tx.query(
    `SELECT ${key} AS id FROM ${table} WHERE tenant_id = $1 AND ${key} <> ALL($4::text[]) ${condition}
      ORDER BY md5(${key} || $3), ${key} LIMIT $2`,
    [tenantId, count, salt, except],
  );
  return rows.map((r) => r.id);
}

async function changePrice(tx: EntityManager, productId: string, factor: number): Promise<DevChange> {
  // A price too small for the factor to show (or to go down) goes up by 0.01. The net price is the
  // gross one without its VAT rate.
  const { from, to } = returned(
    await tx.query(
      `WITH old AS (
       SELECT p.selling_price_gross AS gross, round(p.selling_price_gross * $2, 2) AS moved,
              coalesce(v.percentage, 0) AS vat
         FROM products p LEFT JOIN vat_rates v ON v.id = p.vat_rate_id WHERE p.id = $1
     ), priced AS (
       SELECT gross, vat, CASE WHEN moved = gross OR moved < 0.01 THEN gross + 0.01 ELSE moved END AS gross_to FROM old
     )
     UPDATE products p
        SET selling_price_gross = priced.gross_to,
            selling_price_net = round(priced.gross_to / (1 + priced.vat / 100), 2),
            updated_at = now()
       FROM priced
      WHERE p.id = $1
      RETURNING priced.gross::text AS "from", p.selling_price_gross::text AS "to"`,
      [productId, factor],
    ),
  );
  return { kind: 'price', id: productId, from, to };
}

/** The first row an UPDATE … RETURNING gave back (TypeORM answers an UPDATE with [rows, count]). */
function returned(result: unknown): { from: string; to: string } {
  const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as {
    from: string;
    to: string;
  }[];
  return rows[0];
}

/** Mulberry32: a small generator of numbers in [0, 1) that a 32-bit seed starts. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
