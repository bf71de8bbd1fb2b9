// The bare baseline: node:http + pg, no framework, answering the benchmark's requests with the plain
// SQL a straightforward implementation would run (key lookup by digest, COUNT(*) for the total, then
// the page). It answers only what the benchmark asks and is not a second implementation of the API.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 10) });
const keys = new Map();

async function caller(header) {
  const key = /^bearer (\S+)$/i.exec(header ?? '')?.[1];
  if (!key) return null;
  const digest = createHash('sha256').update(key).digest('hex');
  const cached = keys.get(digest);
  if (cached && Date.now() - cached.at < 2000) return cached.row;
  const { rows } = await pool.query(
    `SELECT c.tenant_id, c.allowed_store_ids FROM api_keys k JOIN api_clients c ON c.id = k.client_id
      WHERE k.key_digest = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now()) AND c.status = 'ACTIVE'`,
    [digest],
  );
  keys.set(digest, { row: rows[0] ?? null, at: Date.now() });
  return rows[0] ?? null;
}

const money = (v) => (v === null ? null : Number(v).toFixed(2));
const products = async (tenant, q) => {
  const where = ['p.tenant_id = $1', 'p.is_active'];
  const params = [tenant];
  for (const term of (q.get('q') ?? '').split(/\s+/).filter(Boolean)) {
    params.push(`%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`p.search_text LIKE $${params.length}`);
  }
  if (q.get('updatedSince')) {
    params.push(q.get('updatedSince'));
    where.push(`p.updated_at >= $${params.length}`);
  }
  const page = Number(q.get('page') ?? 1);
  const size = Number(q.get('pageSize') ?? 50);
  const total = Number(
    (await pool.query(`SELECT count(*) FROM products p WHERE ${where.join(' AND ')}`, params)).rows[0].count,
  );
  const { rows } = await pool.query(
    `SELECT p.id, p.store_id, p.category_id, p.name, p.sku, p.barcode, p.brand, p.size, p.unit_type,
            p.selling_price_gross, p.selling_price_net, p.tax_category, v.id AS vat_id, v.code AS vat_code,
            v.name AS vat_name, v.percentage, p.is_active, p.variable_price, p.age_restricted, p.alcohol_restricted,
            p.tobacco_restricted, p.vape_restricted, p.updated_at
       FROM products p LEFT JOIN vat_rates v ON v.id = p.vat_rate_id
      WHERE ${where.join(' AND ')} ORDER BY p.id LIMIT ${size} OFFSET ${(page - 1) * size}`,
    params,
  );
  return {
    rows: rows.map((r) => ({
      id: r.id,
      storeId: r.store_id,
      categoryId: r.category_id,
      name: r.name,
      sku: r.sku,
      barcode: r.barcode,
      brand: r.brand,
      size: r.size,
      unitType: r.unit_type,
      sellingPriceGross: money(r.selling_price_gross),
      sellingPriceNet: money(r.selling_price_net),
      taxCategory: r.tax_category,
      vatRate:
        r.vat_id === null
          ? null
          : { id: r.vat_id, code: r.vat_code, name: r.vat_name, percentage: money(r.percentage) },
      isActive: r.is_active,
      variablePrice: r.variable_price,
      ageRestricted: r.age_restricted,
      alcoholRestricted: r.alcohol_restricted,
      tobaccoRestricted: r.tobacco_restricted,
      vapeRestricted: r.vape_restricted,
      updatedAt: r.updated_at.toISOString(),
    })),
    page,
    pageSize: size,
    total,
    totalPages: Math.max(1, Math.ceil(total / size)),
  };
};

const stock = async (tenant, q) => {
  const where = ['p.tenant_id = $1', 'p.is_active'];
  if (q.get('lowStockOnly') === 'true')
    where.push('s.track_stock AND s.quantity > 0 AND s.quantity <= s.reorder_level');
  const page = Number(q.get('page') ?? 1);
  const size = Number(q.get('pageSize') ?? 50);
  const from = 'FROM products p LEFT JOIN stock_levels s ON s.product_id = p.id';
  const total = Number(
    (await pool.query(`SELECT count(*) ${from} WHERE ${where.join(' AND ')}`, [tenant])).rows[0].count,
  );
  const { rows } = await pool.query(
    `SELECT p.id, p.store_id, p.sku, p.barcode, p.name, COALESCE(s.track_stock, false) AS track,
            COALESCE(s.quantity, 0) AS quantity, COALESCE(s.low_stock_threshold, 0) AS threshold,
            COALESCE(s.reorder_level, 0) AS reorder, GREATEST(p.updated_at, s.updated_at) AS updated_at
       ${from} WHERE ${where.join(' AND ')} ORDER BY p.id LIMIT ${size} OFFSET ${(page - 1) * size}`,
    [tenant],
  );
  return {
    rows: rows.map((r) => ({
      productId: r.id,
      storeId: r.store_id,
      sku: r.sku,
      barcode: r.barcode,
      productName: r.name,
      trackStock: r.track,
      quantity: Number(r.quantity).toFixed(3),
      lowStockThreshold: Number(r.threshold).toFixed(3),
      reorderLevel: Number(r.reorder).toFixed(3),
      availability: !r.track
        ? 'not_tracked'
        : Number(r.quantity) <= 0
          ? 'out_of_stock'
          : Number(r.quantity) <= Number(r.reorder)
            ? 'low_stock'
            : 'in_stock',
      updatedAt: r.updated_at.toISOString(),
    })),
    page,
    pageSize: size,
    total,
    totalPages: Math.max(1, Math.ceil(total / size)),
  };
};

const categories = async (tenant) =>
  (
    await pool.query(
      `SELECT id, store_id, parent_category_id, name, code, description, sort_order, is_active, updated_at FROM categories
      WHERE tenant_id = $1 AND is_active AND NOT is_archived ORDER BY sort_order, lower(name) COLLATE "C", id`,
      [tenant],
    )
  ).rows.map((r) => ({
    id: r.id,
    storeId: r.store_id,
    parentCategoryId: r.parent_category_id,
    name: r.name,
    code: r.code,
    description: r.description,
    sortOrder: r.sort_order,
    isActive: r.is_active,
    updatedAt: r.updated_at.toISOString(),
  }));

// The same three queries as the service (the promotions with the tenant's currency, then the names
// that the descriptions mention) and a plain description, so that both do the same work.
const promotions = async (tenant) => {
  const { rows } = await pool.query(
    `SELECT pr.id, pr.store_id, pr.name, pr.type, pr.status, pr.starts_at, pr.ends_at, pr.conditions, pr.actions, pr.updated_at, t.currency
       FROM promotions pr JOIN tenants t ON t.id = pr.tenant_id
      WHERE pr.tenant_id = $1 AND pr.type = ANY($2) AND NOT pr.is_system_preset AND pr.status = 'ACTIVE'
        AND (pr.starts_at IS NULL OR pr.starts_at <= now()) AND (pr.ends_at IS NULL OR now() <= pr.ends_at) ORDER BY pr.id`,
    [tenant, ['PERCENT_OFF', 'AMOUNT_OFF', 'FIXED_PRICE', 'MULTI_BUY', 'BUY_X_GET_Y', 'BUNDLE', 'SPEND_AND_SAVE']],
  );
  const ids = (key) => [...new Set(rows.flatMap((r) => r.conditions.flatMap((c) => c[key] ?? [])))];
  const names = async (table, list) =>
    new Map(
      list.length === 0
        ? []
        : (
            await pool.query(`SELECT id, name FROM ${table} WHERE tenant_id = $1 AND id = ANY($2)`, [tenant, list])
          ).rows.map((r) => [r.id, r.name]),
    );
  const [products, categories] = await Promise.all([
    names('products', ids('productIds')),
    names('categories', ids('categoryIds')),
  ]);
  const eligibility = (conditions) =>
    conditions
      .map((c) =>
        c.productIds
          ? `Buy ${c.minQuantity} or more of ${c.productIds.map((id) => products.get(id)).join(', ')}`
          : c.categoryIds
            ? `Buy ${c.minQuantity} or more from ${c.categoryIds.map((id) => categories.get(id)).join(', ')}`
            : c.minSpend
              ? `Spend ${c.minSpend}`
              : 'Any purchase',
      )
      .join(' and ');
  const discount = (actions, currency) =>
    actions
      .map((a) =>
        a.percent
          ? `${a.percent}% off`
          : a.amount
            ? `${currency} ${a.amount} off`
            : a.price
              ? `Now ${currency} ${a.price}`
              : 'Free items',
      )
      .join(', then ');
  return rows.map((r) => ({
    id: r.id,
    storeId: r.store_id,
    name: r.name,
    type: r.type,
    schedule: { startsAt: r.starts_at?.toISOString() ?? null, endsAt: r.ends_at?.toISOString() ?? null },
    lifecycle: { status: r.status },
    isActive: true,
    eligibilityDescription: eligibility(r.conditions),
    discountDescription: discount(r.actions, r.currency),
    updatedAt: r.updated_at.toISOString(),
  }));
};

const product = async (tenant, id) => {
  const { rows } = await pool.query(
    `SELECT p.id, p.store_id, p.category_id, p.name, p.sku, p.barcode, p.brand, p.size, p.unit_type,
            p.selling_price_gross, p.selling_price_net, p.tax_category, v.id AS vat_id, v.code AS vat_code,
            v.name AS vat_name, v.percentage, p.is_active, p.variable_price, p.age_restricted, p.alcohol_restricted,
            p.tobacco_restricted, p.vape_restricted, p.updated_at
       FROM products p LEFT JOIN vat_rates v ON v.id = p.vat_rate_id WHERE p.tenant_id = $1 AND p.id = $2`,
    [tenant, id],
  );
  const r = rows[0];
  return (
    r && {
      id: r.id,
      storeId: r.store_id,
      categoryId: r.category_id,
      name: r.name,
      sku: r.sku,
      barcode: r.barcode,
      brand: r.brand,
      size: r.size,
      unitType: r.unit_type,
      sellingPriceGross: money(r.selling_price_gross),
      sellingPriceNet: money(r.selling_price_net),
      taxCategory: r.tax_category,
      vatRate:
        r.vat_id === null
          ? null
          : { id: r.vat_id, code: r.vat_code, name: r.vat_name, percentage: money(r.percentage) },
      isActive: r.is_active,
      variablePrice: r.variable_price,
      ageRestricted: r.age_restricted,
      alcoholRestricted: r.alcohol_restricted,
      tobaccoRestricted: r.tobacco_restricted,
      vapeRestricted: r.vape_restricted,
      updatedAt: r.updated_at.toISOString(),
    }
  );
};

const routes = {
  '/v1/catalog/products': products,
  '/v1/inventory/stock': stock,
  '/v1/catalog/categories': categories,
  '/v1/catalog/promotions': promotions,
};

createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/health/ready' || url.pathname === '/health/live') return res.end('ok');
    const one = /^\/v1\/catalog\/products\/([^/]+)$/.exec(url.pathname);
    const handler = one ? (tenant) => product(tenant, decodeURIComponent(one[1])) : routes[url.pathname];
    const who = handler ? await caller(req.headers.authorization) : null;
    if (!handler || !who) {
      res.statusCode = handler ? 401 : 404;
      return res.end();
    }
    const body = JSON.stringify(await handler(who.tenant_id, url.searchParams));
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(body);
  } catch (error) {
    res.statusCode = 500;
    res.end(String(error));
  }
}).listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
