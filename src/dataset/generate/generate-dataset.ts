import type { Writable } from 'node:stream';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { digestKey, keyHint } from '../../values/api-key-format.js';
import { SCOPES } from '../../auth/scopes.js';
import { PRODUCT_COLUMNS, productRow, type ProductInput } from '../validate-dataset.js';
import { BRANDS, CATEGORY_TREE, PRODUCTS, SIZES, VARIANTS } from './words.js';

export interface GenerateOptions {
  products: number;
  stores: number;
  tenants: number;
  seed: number;
  /** Products of each tenant but the first (which holds `products`). */
  productsPerSmallTenant: number;
  onProgress?: (phase: string, done: number, total: number) => void;
}

export interface GeneratedKeys {
  /** The big tenant's all-scope key, then one key per small tenant. */
  keys: { tenantId: string; clientId: string; key: string; stores: 'all' | string[] }[];
}

/** mulberry32: small, fast and deterministic for a seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
/** COPY text format: \N for null; backslash, tab and newline escaped. */
const field = (v: string | number | boolean | null): string =>
  v === null
    ? '\\N'
    : typeof v === 'string'
      ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n')
      : String(v);

type Cell = string | number | boolean | null;

async function copy(
  client: PoolClient,
  table: string,
  columns: string[],
  rows: Iterable<Cell[]>,
  progress?: (n: number) => void,
): Promise<void> {
  const stream: Writable = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  let buffer = '';
  let count = 0;
  for (const row of rows) {
    buffer += row.map(field).join('\t') + '\n';
    count++;
    if (buffer.length > 1 << 20) {
      if (!stream.write(buffer)) await new Promise((r) => stream.once('drain', r));
      buffer = '';
      progress?.(count);
    }
  }
  stream.end(buffer);
  await done;
  progress?.(count);
}

/** The tenant ids the generator owns; `--replace` semantics: they are deleted first. */
export const benchTenantId = (i: number): string => `ten_bench_${pad(i, 2)}`;
export const benchKey = (i: number): string => `ck_test_BenchTenant${pad(i, 2)}AllScopesKey000000000000000001`;

/**
 * Writes a deterministic data set straight into PostgreSQL with COPY: one big tenant with
 * `products` products across `stores` stores, and `tenants - 1` small ones. Secondary indexes of the
 * big tables are dropped during the load and rebuilt after it, which is much faster than
 * maintaining them row by row.
 */
export async function generateDataset(client: PoolClient, options: GenerateOptions): Promise<GeneratedKeys> {
  const rnd = random(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const tenants = Array.from({ length: options.tenants }, (_, i) => i);
  const storesOf = (t: number): number => (t === 0 ? options.stores : 2);
  const productsOf = (t: number): number => (t === 0 ? options.products : options.productsPerSmallTenant);
  const storeId = (t: number, s: number): string => `sto_${pad(t, 2)}_${pad(s, 3)}`;
  const categoryId = (t: number, s: number, c: number): string => `cat_${pad(t, 2)}_${pad(s, 3)}_${pad(c, 2)}`;
  const productId = (t: number, n: number): string => `prd_${pad(t, 2)}_${pad(n, 7)}`;
  const base = Date.UTC(2025, 0, 1);
  const iso = (ms: number): string => new Date(ms).toISOString();

  await client.query('BEGIN');
  await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  await client.query(`SET LOCAL statement_timeout = 0`);
  await client.query(`DELETE FROM tenants WHERE id LIKE 'ten\\_bench\\_%'`);
  const indexes: { indexname: string; indexdef: string }[] = (
    await client.query(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename IN ('products', 'stock_levels', 'stock_movements')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    )
  ).rows;
  for (const index of indexes) await client.query(`DROP INDEX ${index.indexname}`);

  await copy(
    client,
    'tenants',
    ['id', 'name', 'currency'],
    tenants.map((t) => [benchTenantId(t), `Bench Retail ${t}`, t % 3 === 0 ? 'GBP' : t % 3 === 1 ? 'EUR' : 'NOK']),
  );
  await copy(
    client,
    'stores',
    ['id', 'tenant_id', 'name'],
    tenants.flatMap((t) =>
      Array.from({ length: storesOf(t) }, (_, s) => [storeId(t, s), benchTenantId(t), `Store ${s + 1}`]),
    ),
  );
  await copy(
    client,
    'vat_rates',
    ['id', 'tenant_id', 'code', 'name', 'percentage'],
    tenants.flatMap((t) => [
      [`vat_${pad(t, 2)}_s`, benchTenantId(t), 'S', 'Standard rate', '20.00'],
      [`vat_${pad(t, 2)}_r`, benchTenantId(t), 'R', 'Reduced rate', '5.00'],
      [`vat_${pad(t, 2)}_z`, benchTenantId(t), 'Z', 'Zero rate', '0.00'],
    ]),
  );
  await copy(
    client,
    'suppliers',
    ['id', 'tenant_id', 'name', 'contact_email'],
    tenants.flatMap((t) =>
      Array.from({ length: 10 }, (_, i) => [
        `sup_${pad(t, 2)}_${i}`,
        benchTenantId(t),
        `Wholesaler ${t}-${i}`,
        `orders${i}@wholesale.example`,
      ]),
    ),
  );
  await copy(
    client,
    'staff',
    ['id', 'tenant_id', 'name'],
    tenants.flatMap((t) =>
      Array.from({ length: 5 }, (_, i) => [`stf_${pad(t, 2)}_${i}`, benchTenantId(t), `Staff member ${t}-${i}`]),
    ),
  );
  await copy(
    client,
    'categories',
    [
      'id',
      'tenant_id',
      'store_id',
      'parent_category_id',
      'name',
      'code',
      'description',
      'sort_order',
      'is_active',
      'is_archived',
      'updated_at',
    ],
    (function* () {
      for (const t of tenants)
        for (let s = 0; s < storesOf(t); s++) {
          let c = 0;
          for (const [gi, [group, children]] of CATEGORY_TREE.entries()) {
            const parent = categoryId(t, s, c++);
            yield [
              parent,
              benchTenantId(t),
              storeId(t, s),
              null,
              group,
              group.slice(0, 2).toUpperCase(),
              null,
              (gi + 1) * 10,
              true,
              false,
              iso(base),
            ];
            for (const [ci, child] of children.entries()) {
              yield [
                categoryId(t, s, c++),
                benchTenantId(t),
                storeId(t, s),
                parent,
                child,
                null,
                null,
                (ci + 1) * 10,
                ci !== 3 || gi !== 7,
                gi === 7 && ci === 3,
                iso(base),
              ];
            }
          }
        }
    })(),
  );

  const totalProducts = tenants.reduce((n, t) => n + productsOf(t), 0);
  const categoriesPerStore = CATEGORY_TREE.reduce((n, [, children]) => n + 1 + children.length, 0);
  await copy(
    client,
    'products',
    PRODUCT_COLUMNS,
    (function* () {
      for (const t of tenants)
        for (let n = 1; n <= productsOf(t); n++) {
          const s = n % storesOf(t);
          const noun = pick(PRODUCTS);
          const brand = rnd() < 0.9 ? pick(BRANDS) : null;
          const variant = pick(VARIANTS);
          const size = pick(SIZES);
          const gross = Math.round((0.4 + rnd() * rnd() * 40) * 100) / 100;
          const net = gross / 1.2;
          const cost = net * (0.4 + rnd() * 0.3);
          const child = 1 + Math.floor(rnd() * CATEGORY_TREE.length) * 5 + 1 + Math.floor(rnd() * 4);
          const kind = Math.floor(rnd() * 100);
          const staff = `stf_${pad(t, 2)}_${n % 5}`;
          const product: ProductInput = {
            id: productId(t, n),
            storeId: storeId(t, s),
            categoryId: rnd() < 0.97 ? categoryId(t, s, Math.min(child, categoriesPerStore - 1)) : null,
            name: [brand, noun, variant, size].filter(Boolean).join(' '),
            sku: `SKU-${pad(t, 2)}-${pad(n, 7)}`,
            barcode: rnd() < 0.92 ? String(5000000000000 + t * 10_000_000 + n) : null,
            brand,
            size,
            unitType: kind < 3 ? 'kg' : kind < 5 ? 'ml' : 'item',
            sellingPriceGross: gross.toFixed(2),
            sellingPriceNet: net.toFixed(2),
            taxCategory: kind < 30 ? 'ZERO_RATED' : 'STANDARD',
            vatRateId: kind < 30 ? `vat_${pad(t, 2)}_z` : `vat_${pad(t, 2)}_s`,
            isActive: rnd() < 0.95,
            variablePrice: kind < 3,
            ageRestricted: kind >= 90,
            alcoholRestricted: kind >= 90 && kind < 95,
            tobaccoRestricted: kind >= 95 && kind < 97,
            vapeRestricted: kind >= 97,
            updatedAt: iso(base + Math.floor(rnd() * 700 * 86_400_000)),
            costPrice: cost.toFixed(4),
            packCost: (cost * 12).toFixed(4),
            unitCost: cost.toFixed(4),
            marginPercent: (((net - cost) / net) * 100).toFixed(2),
            supplierId: `sup_${pad(t, 2)}_${n % 10}`,
            supplierSku: `WS-${n}`,
            createdByStaffId: staff,
            updatedByStaffId: staff,
          };
          yield productRow(product, benchTenantId(t)) as Cell[];
        }
    })(),
    (count) => options.onProgress?.('products', count, totalProducts),
  );

  await copy(
    client,
    'stock_levels',
    [
      'product_id',
      'tenant_id',
      'store_id',
      'track_stock',
      'quantity',
      'reorder_level',
      'low_stock_threshold',
      'updated_at',
    ],
    (function* () {
      for (const t of tenants)
        for (let n = 1; n <= productsOf(t); n++) {
          if (n % 10 === 7) continue; // no stock record
          const r = rnd();
          const reorder = 5 + Math.floor(rnd() * 20);
          const quantity =
            r < 0.08
              ? '0'
              : r < 0.1
                ? (-rnd() * 5).toFixed(3)
                : r < 0.2
                  ? (1 + Math.floor(rnd() * reorder)).toFixed(3)
                  : (reorder + 1 + rnd() * 200).toFixed(3);
          yield [
            productId(t, n),
            benchTenantId(t),
            storeId(t, n % storesOf(t)),
            rnd() < 0.96,
            quantity,
            String(reorder),
            String(reorder),
            iso(base + Math.floor(rnd() * 730 * 86_400_000)),
          ];
        }
    })(),
    (count) => options.onProgress?.('stock levels', count, totalProducts),
  );

  await copy(
    client,
    'stock_movements',
    ['id', 'tenant_id', 'product_id', 'kind', 'quantity_delta', 'reason', 'staff_id', 'occurred_at'],
    (function* () {
      for (const t of tenants)
        for (let n = 1; n <= productsOf(t); n += 20) {
          yield [
            `mov_${pad(t, 2)}_${pad(n, 7)}`,
            benchTenantId(t),
            productId(t, n),
            'RECEIPT',
            '24',
            'Weekly delivery',
            `stf_${pad(t, 2)}_0`,
            iso(base + n),
          ];
        }
    })(),
  );

  const types = [
    'PERCENT_OFF',
    'AMOUNT_OFF',
    'FIXED_PRICE',
    'MULTI_BUY',
    'BUY_X_GET_Y',
    'BUNDLE',
    'SPEND_AND_SAVE',
    'COUPON',
    'STAFF_DISCOUNT',
  ];
  const statuses = ['ACTIVE', 'ACTIVE', 'ACTIVE', 'PAUSED', 'DRAFT', 'ARCHIVED'];
  await copy(
    client,
    'promotions',
    [
      'id',
      'tenant_id',
      'store_id',
      'name',
      'type',
      'status',
      'starts_at',
      'ends_at',
      'is_system_preset',
      'conditions',
      'actions',
      'builder_config',
      'created_by_staff_id',
      'updated_at',
    ],
    (function* () {
      for (const t of tenants)
        for (let s = 0; s < storesOf(t); s++)
          for (let i = 0; i < 20; i++) {
            const starts = i % 4 === 0 ? null : iso(Date.UTC(2026, i % 12, 1));
            const ends = i % 3 === 0 ? null : iso(Date.UTC(2027, i % 12, 1));
            yield [
              `pro_${pad(t, 2)}_${pad(s, 3)}_${pad(i, 2)}`,
              benchTenantId(t),
              storeId(t, s),
              `Offer ${i + 1}`,
              types[i % types.length],
              statuses[i % statuses.length],
              starts,
              ends,
              i === 19,
              JSON.stringify([{ kind: 'category_quantity', minQuantity: 2, categoryIds: [categoryId(t, s, 1)] }]),
              JSON.stringify([{ kind: 'percent_off', percent: '10', target: 'qualifying_items' }]),
              JSON.stringify({ template: 'bench' }),
              null,
              iso(base),
            ];
          }
    })(),
  );

  const keys: GeneratedKeys['keys'] = [];
  for (const t of tenants) {
    const clientId = `cli_bench_${pad(t, 2)}`;
    await client.query(
      `INSERT INTO api_clients (id, tenant_id, name, status, scopes, allowed_store_ids, rate_limit_per_minute)
       VALUES ($1, $2, $3, 'ACTIVE', $4, NULL, 100000000)`,
      [clientId, benchTenantId(t), `Bench client ${t}`, [...SCOPES]],
    );
    const key = benchKey(t);
    await client.query(`INSERT INTO api_keys (id, client_id, key_digest, key_hint) VALUES ($1, $2, $3, $4)`, [
      `key_bench_${pad(t, 2)}`,
      clientId,
      digestKey(key),
      keyHint(key),
    ]);
    keys.push({ tenantId: benchTenantId(t), clientId, key, stores: 'all' });
  }

  for (const [i, index] of indexes.entries()) {
    options.onProgress?.('indexes', i, indexes.length);
    await client.query(index.indexdef);
  }
  options.onProgress?.('indexes', indexes.length, indexes.length);
  await client.query('COMMIT');
  // Sets the visibility map too, so that list pages can be read by index-only scans.
  await client.query('VACUUM ANALYZE');
  return { keys };
}
