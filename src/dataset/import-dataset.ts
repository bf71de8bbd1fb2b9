import type { DataSource, QueryRunner } from 'typeorm';
import { lockProductsForNarrowingSql, mayNarrow } from '../schema/narrowing-lock.js';
import { digestKey, keyHint } from '../values/api-key-format.js';
import { count } from '../values/plural.js';
import type { Dataset } from './dataset.types.js';
import { type DatasetProblem, PRODUCT_COLUMNS, productRow, validateDatasetShape } from './validate-dataset.js';

export class DatasetImportError extends Error {
  constructor(readonly problems: DatasetProblem[]) {
    super(`the data set has ${count(problems.length, 'problem')}`);
    this.name = 'DatasetImportError';
  }
}

/** Rows written, by kind. */
export interface ImportCounts {
  tenants: number;
  stores: number;
  vatRates: number;
  suppliers: number;
  staff: number;
  categories: number;
  products: number;
  stockLevels: number;
  stockMovements: number;
  promotions: number;
  apiClients: number;
  apiKeys: number;
}

export interface ImportSummary {
  mode: 'upsert' | 'replace';
  replacedTenants: string[];
  counts: ImportCounts;
  /** Clients and keys the file gives as not revoked that stay revoked: revocation is permanent. */
  stillRevoked: { clients: string[]; keys: string[] };
}

interface Owner {
  tenantId: string;
  storeId?: string;
}

/** Every id the data set may refer to, from the file first and then from the database. */
class Universe {
  readonly tenants = new Set<string>();
  readonly stores = new Map<string, Owner>();
  readonly vatRates = new Map<string, Owner>();
  readonly suppliers = new Map<string, Owner>();
  readonly staff = new Map<string, Owner>();
  readonly categories = new Map<string, Owner>();
  readonly products = new Map<string, Owner>();
}

const TENANT_TABLES = {
  stores: 'stores',
  vatRates: 'vat_rates',
  suppliers: 'suppliers',
  staff: 'staff',
  categories: 'categories',
  products: 'products',
} as const;

/**
 * Loads a data set in the format of docs/dataset-format.md in one transaction: on any problem nothing is written
 * and every problem is reported with its JSON path.
 */
export async function importDataset(
  dataSource: DataSource,
  input: unknown,
  options: { replace: boolean },
): Promise<ImportSummary> {
  const { dataset, problems: shapeProblems } = validateDatasetShape(input);
  if (shapeProblems.some((p) => p.path === '$')) throw new DatasetImportError(shapeProblems);

  const runner = dataSource.createQueryRunner('master');
  await runner.connect();
  try {
    await runner.startTransaction();
    // One import at a time, so that the checks below still hold when the rows are written.
    await runner.query(`SELECT pg_advisory_xact_lock(hashtext('dataset-import'))`);
    const replacedTenants = options.replace ? tenantsNamed(dataset) : [];
    // References are checked even when some fields are malformed, so that one run reports every
    // problem; a reference at a path that is already reported malformed is not reported twice.
    const referenceProblems: DatasetProblem[] = [];
    const universe = await buildUniverse(runner, dataset, replacedTenants, referenceProblems);
    checkReferences(dataset, universe, referenceProblems);
    await checkDatabaseUniqueness(runner, dataset, replacedTenants, referenceProblems);
    const malformed = new Set(shapeProblems.map((p) => p.path));
    const problems = [...shapeProblems, ...referenceProblems.filter((p) => !malformed.has(p.path))];
    if (problems.length > 0) throw new DatasetImportError(problems);

    // A client narrowed by this file locks products when it is written, after the products: taken
    // there, the lock could deadlock with a product writer waiting for a product written here. Taken
    // now, before any write, it waits for the writers under way instead (src/schema/narrowing-lock.ts).
    if (await narrowsClients(runner, dataset, replacedTenants)) {
      await runner.query(lockProductsForNarrowingSql('SHARE ROW EXCLUSIVE'));
    }
    if (replacedTenants.length > 0) {
      // A tenant the file refers to without listing it keeps its own row (name, currency): the
      // file replaces what the tenant owns, and cannot recreate the tenant itself.
      const listed = new Set(dataset.tenants.map((t) => t.id));
      const kept: { id: string; name: string; currency: string }[] = await runner.query(
        `SELECT id, name, currency FROM tenants WHERE id = ANY($1)`,
        [replacedTenants.filter((id) => !listed.has(id))],
      );
      // Cascades to every row the tenants own; other tenants are untouched.
      await runner.query(`DELETE FROM tenants WHERE id = ANY($1)`, [replacedTenants]);
      for (const t of kept)
        await runner.query(`INSERT INTO tenants (id, name, currency) VALUES ($1, $2, $3)`, [t.id, t.name, t.currency]);
    }
    const counts = await writeDataset(runner, dataset, universe);
    const stillRevoked = await revokedDespiteFile(runner, dataset);
    await runner.commitTransaction();
    return { mode: options.replace ? 'replace' : 'upsert', replacedTenants, counts, stillRevoked };
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
}

/**
 * Whether writing the file's clients may narrow one of them (take a store out of its view): a client
 * already there, outside the replaced tenants (whose clients are deleted first and inserted anew),
 * given fewer stores or another tenant.
 */
async function narrowsClients(runner: QueryRunner, d: Dataset, replaced: string[]): Promise<boolean> {
  if (d.apiClients.length === 0) return false;
  const existing: { id: string; tenant_id: string; allowed_store_ids: string[] | null }[] = await runner.query(
    `SELECT id, tenant_id, allowed_store_ids FROM api_clients WHERE id = ANY($1) AND NOT (tenant_id = ANY($2))`,
    [d.apiClients.map((c) => c.id), replaced],
  );
  const inFile = new Map(d.apiClients.map((c) => [c.id, c]));
  return existing.some((c) => {
    const given = inFile.get(c.id)!;
    return given.tenantId !== c.tenant_id || mayNarrow(c.allowed_store_ids, given.allowedStoreIds);
  });
}

function tenantsNamed(d: Dataset): string[] {
  const ids = new Set<string>();
  for (const t of d.tenants) ids.add(t.id);
  for (const list of [d.stores, d.vatRates, d.suppliers, d.staff, d.apiClients])
    for (const row of list) ids.add(row.tenantId);
  return [...ids];
}

async function buildUniverse(
  runner: QueryRunner,
  d: Dataset,
  replaced: string[],
  problems: DatasetProblem[],
): Promise<Universe> {
  const u = new Universe();
  const duplicate = (collection: string, index: number, id: string): void => {
    problems.push({ path: `${collection}[${index}].id`, message: `duplicate id "${id}" in ${collection}` });
  };
  d.tenants.forEach((t, i) => (u.tenants.has(t.id) ? duplicate('tenants', i, t.id) : u.tenants.add(t.id)));

  // A tenant that exists stays known under --replace (its own row is kept); the rows it owns count
  // as known unless it is being replaced.
  const referencedTenants = new Set<string>([...tenantsNamed(d)].filter((id) => !u.tenants.has(id)));
  if (referencedTenants.size > 0) {
    const rows: { id: string }[] = await runner.query(`SELECT id FROM tenants WHERE id = ANY($1)`, [
      [...referencedTenants],
    ]);
    rows.forEach((r) => u.tenants.add(r.id));
  }

  const fileOwners = async (
    collection: keyof typeof TENANT_TABLES,
    map: Map<string, Owner>,
    rows: { id: string; owner: Owner | null }[],
    referenced: Iterable<string | null>,
  ): Promise<void> => {
    rows.forEach((r, i) => {
      if (map.has(r.id)) duplicate(collection, i, r.id);
      else if (r.owner) map.set(r.id, r.owner);
    });
    const missing = [...new Set([...referenced].filter((id): id is string => id !== null && !map.has(id)))];
    if (missing.length === 0) return;
    const table = TENANT_TABLES[collection];
    const storeColumn = table === 'categories' || table === 'products' ? 'store_id' : 'NULL';
    const found: { id: string; tenant_id: string; store_id: string | null }[] = await runner.query(
      `SELECT id, tenant_id, ${storeColumn} AS store_id FROM ${table} WHERE id = ANY($1) AND NOT (tenant_id = ANY($2))`,
      [missing, replaced],
    );
    for (const row of found) map.set(row.id, { tenantId: row.tenant_id, storeId: row.store_id ?? undefined });
  };

  await fileOwners(
    'stores',
    u.stores,
    d.stores.map((s) => ({ id: s.id, owner: { tenantId: s.tenantId } })),
    [
      ...d.categories.map((c) => c.storeId),
      ...d.products.map((p) => p.storeId),
      ...d.promotions.map((p) => p.storeId),
      ...d.apiClients.flatMap((c) => c.allowedStoreIds ?? []),
    ],
  );
  const storeTenant = (storeId: string): Owner | null => {
    const store = u.stores.get(storeId);
    return store ? { tenantId: store.tenantId, storeId } : null;
  };
  await fileOwners(
    'vatRates',
    u.vatRates,
    d.vatRates.map((v) => ({ id: v.id, owner: { tenantId: v.tenantId } })),
    d.products.map((p) => p.vatRateId),
  );
  await fileOwners(
    'suppliers',
    u.suppliers,
    d.suppliers.map((s) => ({ id: s.id, owner: { tenantId: s.tenantId } })),
    d.products.map((p) => p.supplierId),
  );
  await fileOwners(
    'staff',
    u.staff,
    d.staff.map((s) => ({ id: s.id, owner: { tenantId: s.tenantId } })),
    [
      ...d.products.flatMap((p) => [p.createdByStaffId, p.updatedByStaffId]),
      ...d.stockMovements.map((m) => m.staffId),
      ...d.promotions.map((p) => p.createdByStaffId),
    ],
  );
  const conditionIds = (key: 'productIds' | 'categoryIds'): string[] =>
    d.promotions.flatMap((p) => p.conditions.flatMap((c) => conditionRefs(c, key).map(([id]) => id)));
  await fileOwners(
    'categories',
    u.categories,
    d.categories.map((c) => ({ id: c.id, owner: storeTenant(c.storeId) })),
    [
      ...d.categories.map((c) => c.parentCategoryId),
      ...d.products.map((p) => p.categoryId),
      ...conditionIds('categoryIds'),
    ],
  );
  await fileOwners(
    'products',
    u.products,
    d.products.map((p) => ({ id: p.id, owner: storeTenant(p.storeId) })),
    [
      ...d.stockLevels.map((s) => s.productId),
      ...d.stockMovements.map((m) => m.productId),
      ...conditionIds('productIds'),
    ],
  );
  return u;
}

/**
 * The ids a promotion condition refers to, with their index. Conditions are kept as given (jsonb), and
 * references are checked even in a file with malformed fields, so anything but a string is skipped.
 */
function conditionRefs(condition: unknown, key: 'productIds' | 'categoryIds'): [string, number][] {
  const ids =
    typeof condition === 'object' && condition !== null ? (condition as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(ids)) return [];
  return ids.flatMap((id: unknown, k) => (typeof id === 'string' ? [[id, k] as [string, number]] : []));
}

function checkReferences(d: Dataset, u: Universe, problems: DatasetProblem[]): void {
  const fail = (path: string, message: string): void => {
    problems.push({ path, message });
  };
  const tenantRef = (path: string, tenantId: string): void => {
    if (!u.tenants.has(tenantId)) fail(path, `no tenant "${tenantId}"`);
  };
  /** A reference that must resolve to a row of the same tenant (and, when given, the same store). */
  const ref = (
    path: string,
    what: string,
    map: Map<string, Owner>,
    id: string | null,
    owner: Owner | null,
    sameStore = false,
  ): void => {
    if (id === null || owner === null) return;
    const target = map.get(id);
    const where = sameStore ? `store "${owner.storeId}"` : `tenant "${owner.tenantId}"`;
    if (!target || target.tenantId !== owner.tenantId || (sameStore && target.storeId !== owner.storeId)) {
      fail(path, `no ${what} "${id}" in ${where}`);
    }
  };
  const storeOwner = (path: string, storeId: string): Owner | null => {
    const store = u.stores.get(storeId);
    if (!store) {
      fail(path, `no store "${storeId}"`);
      return null;
    }
    return { tenantId: store.tenantId, storeId };
  };

  d.stores.forEach((s, i) => tenantRef(`stores[${i}].tenantId`, s.tenantId));
  d.vatRates.forEach((v, i) => tenantRef(`vatRates[${i}].tenantId`, v.tenantId));
  d.suppliers.forEach((s, i) => tenantRef(`suppliers[${i}].tenantId`, s.tenantId));
  d.staff.forEach((s, i) => tenantRef(`staff[${i}].tenantId`, s.tenantId));
  d.categories.forEach((c, i) => {
    const owner = storeOwner(`categories[${i}].storeId`, c.storeId);
    ref(`categories[${i}].parentCategoryId`, 'category', u.categories, c.parentCategoryId, owner, true);
    if (c.parentCategoryId === c.id) fail(`categories[${i}].parentCategoryId`, 'a category cannot be its own parent');
  });
  checkCategoryCycles(d, problems);

  const skus = new Map<string, number>();
  d.products.forEach((p, i) => {
    const path = `products[${i}]`;
    const owner = storeOwner(`${path}.storeId`, p.storeId);
    ref(`${path}.categoryId`, 'category', u.categories, p.categoryId, owner);
    ref(`${path}.vatRateId`, 'VAT rate', u.vatRates, p.vatRateId, owner);
    ref(`${path}.supplierId`, 'supplier', u.suppliers, p.supplierId, owner);
    ref(`${path}.createdByStaffId`, 'staff member', u.staff, p.createdByStaffId, owner);
    ref(`${path}.updatedByStaffId`, 'staff member', u.staff, p.updatedByStaffId, owner);
    const skuKey = `${p.storeId}\u0000${p.sku}`;
    if (skus.has(skuKey))
      fail(`${path}.sku`, `duplicate sku "${p.sku}" in store "${p.storeId}" (also products[${skus.get(skuKey)}])`);
    else skus.set(skuKey, i);
  });

  const productOwner = (path: string, productId: string): Owner | null => {
    const product = u.products.get(productId);
    if (!product) {
      fail(path, `no product "${productId}"`);
      return null;
    }
    return product;
  };
  const stocked = new Map<string, number>();
  d.stockLevels.forEach((s, i) => {
    productOwner(`stockLevels[${i}].productId`, s.productId);
    if (stocked.has(s.productId))
      fail(`stockLevels[${i}].productId`, `duplicate stock level for product "${s.productId}"`);
    else stocked.set(s.productId, i);
  });
  const movements = new Set<string>();
  d.stockMovements.forEach((m, i) => {
    const owner = productOwner(`stockMovements[${i}].productId`, m.productId);
    ref(`stockMovements[${i}].staffId`, 'staff member', u.staff, m.staffId, owner);
    if (movements.has(m.id)) fail(`stockMovements[${i}].id`, `duplicate id "${m.id}" in stockMovements`);
    movements.add(m.id);
  });
  const promotions = new Set<string>();
  d.promotions.forEach((p, i) => {
    const owner = storeOwner(`promotions[${i}].storeId`, p.storeId);
    ref(`promotions[${i}].createdByStaffId`, 'staff member', u.staff, p.createdByStaffId, owner);
    p.conditions.forEach((c, j) => {
      for (const [id, k] of conditionRefs(c, 'productIds'))
        ref(`promotions[${i}].conditions[${j}].productIds[${k}]`, 'product', u.products, id, owner);
      for (const [id, k] of conditionRefs(c, 'categoryIds'))
        ref(`promotions[${i}].conditions[${j}].categoryIds[${k}]`, 'category', u.categories, id, owner);
    });
    if (promotions.has(p.id)) fail(`promotions[${i}].id`, `duplicate id "${p.id}" in promotions`);
    promotions.add(p.id);
  });
  const clients = new Set<string>();
  const keyIds = new Map<string, string>();
  const keyValues = new Map<string, string>();
  d.apiClients.forEach((c, i) => {
    tenantRef(`apiClients[${i}].tenantId`, c.tenantId);
    c.allowedStoreIds?.forEach((storeId, j) => {
      const store = u.stores.get(storeId);
      if (!store || store.tenantId !== c.tenantId)
        fail(`apiClients[${i}].allowedStoreIds[${j}]`, `no store "${storeId}" in tenant "${c.tenantId}"`);
    });
    if (clients.has(c.id)) fail(`apiClients[${i}].id`, `duplicate id "${c.id}" in apiClients`);
    clients.add(c.id);
    c.keys.forEach((k, j) => {
      const path = `apiClients[${i}].keys[${j}]`;
      if (keyIds.has(k.id)) fail(`${path}.id`, `duplicate key id "${k.id}" (also ${keyIds.get(k.id)})`);
      else keyIds.set(k.id, path);
      if (keyValues.has(k.key)) fail(`${path}.key`, `the same key is also given at ${keyValues.get(k.key)}`);
      else keyValues.set(k.key, path);
    });
  });
}

function checkCategoryCycles(d: Dataset, problems: DatasetProblem[]): void {
  const parent = new Map(d.categories.map((c) => [c.id, c.parentCategoryId]));
  d.categories.forEach((c, i) => {
    const seen = new Set<string>([c.id]);
    let next = c.parentCategoryId;
    while (next !== null && next !== undefined && parent.has(next)) {
      if (seen.has(next)) {
        if (next !== c.id || c.parentCategoryId !== c.id) {
          problems.push({ path: `categories[${i}].parentCategoryId`, message: `the parent chain of "${c.id}" loops` });
        }
        return;
      }
      seen.add(next);
      next = parent.get(next) ?? null;
    }
  });
}

/** Ids that exist in the database under another tenant, skus taken by other products, keys issued twice. */
async function checkDatabaseUniqueness(
  runner: QueryRunner,
  d: Dataset,
  replaced: string[],
  problems: DatasetProblem[],
): Promise<void> {
  const stores = new Map(d.stores.map((s) => [s.id, s.tenantId]));
  const storeTenant = async (storeIds: string[]): Promise<Map<string, string>> => {
    const missing = storeIds.filter((id) => !stores.has(id));
    if (missing.length > 0) {
      const rows: { id: string; tenant_id: string }[] = await runner.query(
        `SELECT id, tenant_id FROM stores WHERE id = ANY($1)`,
        [missing],
      );
      rows.forEach((r) => stores.set(r.id, r.tenant_id));
    }
    return stores;
  };
  await storeTenant([...new Set([...d.categories, ...d.products, ...d.promotions].map((r) => r.storeId))]);

  const owned = async (
    collection: string,
    table: string,
    rows: { id: string; tenantId: string | undefined }[],
  ): Promise<void> => {
    if (rows.length === 0) return;
    const found: { id: string; tenant_id: string }[] = await runner.query(
      `SELECT id, tenant_id FROM ${table} WHERE id = ANY($1) AND NOT (tenant_id = ANY($2))`,
      [rows.map((r) => r.id), replaced],
    );
    const tenantOf = new Map(found.map((r) => [r.id, r.tenant_id]));
    rows.forEach((r, i) => {
      const existing = tenantOf.get(r.id);
      if (existing !== undefined && r.tenantId !== undefined && existing !== r.tenantId) {
        problems.push({ path: `${collection}[${i}].id`, message: `"${r.id}" already exists in another tenant` });
      }
    });
  };
  await owned('stores', 'stores', d.stores);
  await owned('vatRates', 'vat_rates', d.vatRates);
  await owned('suppliers', 'suppliers', d.suppliers);
  await owned('staff', 'staff', d.staff);
  await owned('apiClients', 'api_clients', d.apiClients);
  await owned(
    'categories',
    'categories',
    d.categories.map((c) => ({ id: c.id, tenantId: stores.get(c.storeId) })),
  );
  await owned(
    'products',
    'products',
    d.products.map((p) => ({ id: p.id, tenantId: stores.get(p.storeId) })),
  );
  await owned(
    'promotions',
    'promotions',
    d.promotions.map((p) => ({ id: p.id, tenantId: stores.get(p.storeId) })),
  );
  if (d.stockMovements.length > 0) {
    // A movement belongs to its product's tenant; the product may be in the file or only in the database.
    const productTenant = new Map(d.products.map((p) => [p.id, stores.get(p.storeId)]));
    const elsewhere = [...new Set(d.stockMovements.map((m) => m.productId).filter((id) => !productTenant.has(id)))];
    const rows: { id: string; tenant_id: string }[] =
      elsewhere.length === 0
        ? []
        : await runner.query(`SELECT id, tenant_id FROM products WHERE id = ANY($1)`, [elsewhere]);
    rows.forEach((r) => productTenant.set(r.id, r.tenant_id));
    await owned(
      'stockMovements',
      'stock_movements',
      d.stockMovements.map((m) => ({ id: m.id, tenantId: productTenant.get(m.productId) })),
    );
  }

  if (d.products.length > 0) {
    // A sku held by a product that this file does not rewrite.
    const taken: { id: string; store_id: string; sku: string }[] = await runner.query(
      `SELECT p.id, p.store_id, p.sku FROM products p
        JOIN unnest($1::text[], $2::text[]) AS f(store_id, sku) ON f.store_id = p.store_id AND f.sku = p.sku
       WHERE NOT (p.id = ANY($3)) AND NOT (p.tenant_id = ANY($4))`,
      [d.products.map((p) => p.storeId), d.products.map((p) => p.sku), d.products.map((p) => p.id), replaced],
    );
    const takenBy = new Map(taken.map((t) => [`${t.store_id}\u0000${t.sku}`, t.id]));
    d.products.forEach((p, i) => {
      const other = takenBy.get(`${p.storeId}\u0000${p.sku}`);
      if (other)
        problems.push({
          path: `products[${i}].sku`,
          message: `sku "${p.sku}" is already used by product "${other}" in store "${p.storeId}"`,
        });
    });
  }

  const keys = d.apiClients.flatMap((c, i) =>
    c.keys.map((k, j) => ({ ...k, clientId: c.id, path: `apiClients[${i}].keys[${j}]` })),
  );
  if (keys.length > 0) {
    const found: { id: string; client_id: string; key_digest: string; tenant_id: string }[] = await runner.query(
      `SELECT k.id, k.client_id, k.key_digest, c.tenant_id FROM api_keys k JOIN api_clients c ON c.id = k.client_id
        WHERE (k.id = ANY($1) OR k.key_digest = ANY($2)) AND NOT (c.tenant_id = ANY($3))`,
      [keys.map((k) => k.id), keys.map((k) => digestKey(k.key)), replaced],
    );
    for (const k of keys) {
      const digest = digestKey(k.key);
      for (const row of found) {
        if (row.id === k.id && row.client_id !== k.clientId) {
          problems.push({ path: `${k.path}.id`, message: `key id "${k.id}" already belongs to another client` });
        } else if (row.key_digest === digest && row.id !== k.id) {
          problems.push({ path: `${k.path}.key`, message: 'this key is already issued under another key id' });
        }
      }
    }
  }
}

/**
 * The file's clients and keys that it gives as not revoked but that are revoked in the database: the
 * admin tool (or an earlier file) revoked them, and the database keeps revocations whatever is
 * written later (migration PermanentRevocation), under --replace too.
 */
async function revokedDespiteFile(runner: QueryRunner, d: Dataset): Promise<ImportSummary['stillRevoked']> {
  const clientIds = d.apiClients.filter((c) => c.status !== 'REVOKED').map((c) => c.id);
  const keyIds = d.apiClients.flatMap((c) => c.keys.filter((k) => k.revokedAt === null).map((k) => k.id));
  if (clientIds.length + keyIds.length === 0) return { clients: [], keys: [] };
  const clients: { id: string }[] = await runner.query(
    `SELECT id FROM api_clients WHERE id = ANY($1) AND status = 'REVOKED' ORDER BY id`,
    [clientIds],
  );
  const keys: { id: string }[] = await runner.query(
    `SELECT id FROM api_keys WHERE id = ANY($1) AND revoked_at IS NOT NULL ORDER BY id`,
    [keyIds],
  );
  return { clients: clients.map((c) => c.id), keys: keys.map((k) => k.id) };
}

/** Multi-row INSERT … ON CONFLICT DO UPDATE, in batches that stay under PostgreSQL's parameter limit. */
async function upsert(
  runner: QueryRunner,
  table: string,
  conflict: string,
  columns: string[],
  rows: unknown[][],
  casts: Record<string, string> = {},
): Promise<void> {
  const batch = Math.max(1, Math.floor(30000 / columns.length));
  const updates = columns
    .filter((c) => c !== conflict)
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');
  for (let start = 0; start < rows.length; start += batch) {
    const chunk = rows.slice(start, start + batch);
    const params: unknown[] = [];
    const values = chunk.map(
      (row) =>
        `(${row
          .map((value, i) => {
            params.push(value);
            return `$${params.length}${casts[columns[i]] ? `::${casts[columns[i]]}` : ''}`;
          })
          .join(', ')})`,
    );
    await runner.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values.join(', ')}
       ON CONFLICT (${conflict}) ${updates ? `DO UPDATE SET ${updates}` : 'DO NOTHING'}`,
      params,
    );
  }
}

async function writeDataset(runner: QueryRunner, d: Dataset, u: Universe): Promise<ImportCounts> {
  const tenantOfStore = (storeId: string): string => u.stores.get(storeId)!.tenantId;
  const json = (value: unknown): string => JSON.stringify(value);
  await upsert(
    runner,
    'tenants',
    'id',
    ['id', 'name', 'currency'],
    d.tenants.map((t) => [t.id, t.name, t.currency]),
  );
  await upsert(
    runner,
    'stores',
    'id',
    ['id', 'tenant_id', 'name'],
    d.stores.map((s) => [s.id, s.tenantId, s.name]),
  );
  await upsert(
    runner,
    'vat_rates',
    'id',
    ['id', 'tenant_id', 'code', 'name', 'percentage'],
    d.vatRates.map((v) => [v.id, v.tenantId, v.code, v.name, v.percentage]),
  );
  await upsert(
    runner,
    'suppliers',
    'id',
    ['id', 'tenant_id', 'name', 'contact_email'],
    d.suppliers.map((s) => [s.id, s.tenantId, s.name, s.contactEmail]),
  );
  await upsert(
    runner,
    'staff',
    'id',
    ['id', 'tenant_id', 'name'],
    d.staff.map((s) => [s.id, s.tenantId, s.name]),
  );
  await runner.query(`SET CONSTRAINTS ALL DEFERRED`);
  await upsert(
    runner,
    'categories',
    'id',
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
    d.categories.map((c) => [
      c.id,
      tenantOfStore(c.storeId),
      c.storeId,
      c.parentCategoryId,
      c.name,
      c.code,
      c.description,
      c.sortOrder,
      c.isActive,
      c.isArchived,
      c.updatedAt,
    ]),
  );
  await upsert(
    runner,
    'products',
    'id',
    PRODUCT_COLUMNS,
    d.products.map((p) => productRow(p, tenantOfStore(p.storeId))),
  );
  // A product whose stock level is given here gets exactly the cost layers given here.
  await upsert(
    runner,
    'stock_levels',
    'product_id',
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
    d.stockLevels.map((s) => {
      const product = u.products.get(s.productId)!;
      return [
        s.productId,
        product.tenantId,
        product.storeId,
        s.trackStock,
        s.quantity,
        s.reorderLevel,
        s.reorderLevel,
        s.updatedAt,
      ];
    }),
  );
  if (d.stockLevels.length > 0) {
    await runner.query(`DELETE FROM stock_cost_layers WHERE product_id = ANY($1)`, [
      d.stockLevels.map((s) => s.productId),
    ]);
    const layers = d.stockLevels.flatMap((s) =>
      s.costLayers.map((l) => [s.productId, l.quantity, l.unitCost, l.receivedAt]),
    );
    await upsert(runner, 'stock_cost_layers', 'id', ['product_id', 'quantity', 'unit_cost', 'received_at'], layers);
  }
  await upsert(
    runner,
    'stock_movements',
    'id',
    ['id', 'tenant_id', 'product_id', 'kind', 'quantity_delta', 'reason', 'staff_id', 'occurred_at'],
    d.stockMovements.map((m) => [
      m.id,
      u.products.get(m.productId)!.tenantId,
      m.productId,
      m.kind,
      m.quantityDelta,
      m.reason,
      m.staffId,
      m.occurredAt,
    ]),
  );
  await upsert(
    runner,
    'promotions',
    'id',
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
    d.promotions.map((p) => [
      p.id,
      tenantOfStore(p.storeId),
      p.storeId,
      p.name,
      p.type,
      p.status,
      p.startsAt,
      p.endsAt,
      p.isSystemPreset,
      json(p.conditions),
      json(p.actions),
      p.builderConfig === null ? null : json(p.builderConfig),
      p.createdByStaffId,
      p.updatedAt,
    ]),
    { conditions: 'jsonb', actions: 'jsonb', builder_config: 'jsonb' },
  );
  await upsert(
    runner,
    'api_clients',
    'id',
    ['id', 'tenant_id', 'name', 'status', 'scopes', 'allowed_store_ids', 'rate_limit_per_minute', 'updated_at'],
    d.apiClients.map((c) => [
      c.id,
      c.tenantId,
      c.name,
      c.status,
      c.scopes,
      c.allowedStoreIds,
      c.rateLimitPerMinute,
      new Date(),
    ]),
  );
  const keys = d.apiClients.flatMap((c) =>
    c.keys.map((k) => [k.id, c.id, digestKey(k.key), keyHint(k.key), k.expiresAt, k.revokedAt]),
  );
  await upsert(
    runner,
    'api_keys',
    'id',
    ['id', 'client_id', 'key_digest', 'key_hint', 'expires_at', 'revoked_at'],
    keys,
  );
  await runner.query(`SET CONSTRAINTS ALL IMMEDIATE`);
  return {
    tenants: d.tenants.length,
    stores: d.stores.length,
    vatRates: d.vatRates.length,
    suppliers: d.suppliers.length,
    staff: d.staff.length,
    categories: d.categories.length,
    products: d.products.length,
    stockLevels: d.stockLevels.length,
    stockMovements: d.stockMovements.length,
    promotions: d.promotions.length,
    apiClients: d.apiClients.length,
    apiKeys: keys.length,
  };
}
