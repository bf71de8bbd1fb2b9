import type { DataSource, EntityManager } from 'typeorm';

/** One change made by `npm run dev:changes`, as the command reports it. */
export interface DevChange {
  kind: 'price' | 'deactivation' | 'stock' | 'vat_rate' | 'deletion' | 'move';
  /**
   * A product id (price, deactivation, stock, deletion: from its store to `deleted`, move: from its
   * store to another) or a VAT rate id.
   */
  id: string;
  from: string;
  to: string;
}

export interface DevChangeCounts {
  prices: number;
  deactivations: number;
  stockLevels: number;
  vatRates: number;
  deletions: number;
  moves: number;
}

export const DEFAULT_DEV_CHANGES: DevChangeCounts = {
  prices: 3,
  deactivations: 1,
  stockLevels: 3,
  vatRates: 1,
  deletions: 1,
  moves: 1,
};

/**
 * A few random changes to one tenant's data, as the back office would make them (each write sets
 * `updated_at`, the triggers set the change markers and record removals), so that a newcomer can
 * watch an incremental sync round bring them: prices of active products (the net price follows the
 * VAT rate), products switched off, stock quantities, a VAT rate's percentage (which changes every
 * product using it, with no write to those products), a product deleted and a product moved to
 * another store of the tenant (the round's removals walk lists the first, and the second for a view
 * without its new store). Each product is changed once. One transaction: all of them or none.
 */
export async function makeDevChanges(
  db: DataSource,
  tenantId: string,
  counts: DevChangeCounts = DEFAULT_DEV_CHANGES,
): Promise<DevChange[]> {
  return db.transaction(async (tx) => {
    const changes: DevChange[] = [];
    const touched = (): string[] => changes.map((c) => c.id);
    for (const row of await pick(tx, 'products', 'id', tenantId, counts.deletions, undefined, touched())) {
      const { from, to } = returned(
        await tx.query(`DELETE FROM products WHERE id = $1 RETURNING store_id AS "from", 'deleted' AS "to"`, [row]),
      );
      changes.push({ kind: 'deletion', id: row, from, to });
    }
    for (const row of await pick(tx, 'products', 'id', tenantId, counts.moves, 'movable', touched())) {
      const { from, to } = returned(
        await tx.query(
          // A SKU is unique per store: one the new store already has takes the product id as a suffix.
          `WITH target AS (
             SELECT s.id FROM stores s JOIN products o ON o.tenant_id = s.tenant_id AND o.store_id <> s.id
              WHERE o.id = $1 ORDER BY random() LIMIT 1)
           UPDATE products p SET updated_at = now(), store_id = target.id,
                  sku = CASE WHEN EXISTS (SELECT 1 FROM products q WHERE q.store_id = target.id AND q.sku = p.sku)
                             THEN p.sku || '-' || p.id ELSE p.sku END
             FROM target, products old WHERE p.id = $1 AND old.id = p.id
          RETURNING old.store_id AS "from", p.store_id AS "to"`,
          [row],
        ),
      );
      changes.push({ kind: 'move', id: row, from, to });
    }
    for (const row of await pick(tx, 'products', 'id', tenantId, counts.prices, 'is_active', touched()))
      changes.push(await changePrice(tx, row));
    for (const row of await pick(tx, 'products', 'id', tenantId, counts.deactivations, 'is_active', touched())) {
      await tx.query(`UPDATE products SET is_active = false, updated_at = now() WHERE id = $1`, [row]);
      changes.push({ kind: 'deactivation', id: row, from: 'active', to: 'inactive' });
    }
    for (const row of await pick(
      tx,
      'stock_levels',
      'product_id',
      tenantId,
      counts.stockLevels,
      'track_stock',
      touched(),
    )) {
      const { from, to } = returned(
        await tx.query(
          `UPDATE stock_levels s SET quantity = s.quantity + $2, updated_at = now() FROM stock_levels old
          WHERE s.product_id = $1 AND old.product_id = s.product_id
          RETURNING old.quantity::text AS "from", s.quantity::text AS "to"`,
          [row, randomInt(1, 20) * (Math.random() < 0.5 ? -1 : 1)],
        ),
      );
      changes.push({ kind: 'stock', id: row, from, to });
    }
    for (const row of await pick(tx, 'vat_rates', 'id', tenantId, counts.vatRates, 'in use')) {
      const { from, to } = returned(
        await tx.query(
          `UPDATE vat_rates v SET percentage = v.percentage + 0.5 FROM vat_rates old
          WHERE v.id = $1 AND old.id = v.id RETURNING old.percentage::text AS "from", v.percentage::text AS "to"`,
          [row],
        ),
      );
      changes.push({ kind: 'vat_rate', id: row, from, to });
    }
    return changes;
  });
}

/** Ids of `count` random rows of the tenant (those where `flag` holds, when given), none of `except`. */
async function pick(
  tx: EntityManager,
  table: 'products' | 'stock_levels' | 'vat_rates',
  key: 'id' | 'product_id',
  tenantId: string,
  count: number,
  flag?: 'is_active' | 'track_stock' | 'in use' | 'movable',
  except: string[] = [],
): Promise<string[]> {
  if (count === 0) return [];
  // A VAT rate that no product uses would change nothing a client sees; a product moves only where
  // its tenant has another store.
  const condition =
    flag === 'in use'
      ? 'AND EXISTS (SELECT 1 FROM products p WHERE p.vat_rate_id = vat_rates.id)'
      : flag === 'movable'
        ? 'AND EXISTS (SELECT 1 FROM stores s WHERE s.tenant_id = products.tenant_id AND s.id <> products.store_id)'
        : flag
          ? `AND ${flag}`
          : '';
  const rows: { id: string }[] = await tx.query(
    `SELECT ${key} AS id FROM ${table} WHERE tenant_id = $1 AND ${key} <> ALL($3::text[]) ${condition}
      ORDER BY random() LIMIT $2`,
    [tenantId, count, except],
  );
  return rows.map((r) => r.id);
}

async function changePrice(tx: EntityManager, productId: string): Promise<DevChange> {
  // 5 to 15 % up or down; a price too small for that to show (or to go down) goes up by 0.01. The
  // net price is the gross one without its VAT rate.
  const factor = 1 + (randomInt(5, 15) / 100) * (Math.random() < 0.5 ? -1 : 1);
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

/** The first row an UPDATE or DELETE … RETURNING gave back (TypeORM answers them with [rows, count]). */
function returned(result: unknown): { from: string; to: string } {
  const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as {
    from: string;
    to: string;
  }[];
  return rows[0];
}

const randomInt = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min + 1));
