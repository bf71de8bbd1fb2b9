/**
 * The data set most HTTP tests load through the importer: two tenants, three stores, products that
 * exercise every filter, stock in every availability state, and clients for every authentication case.
 * Internal values are distinctive so that the redaction test can search response bodies for them.
 */
const ALL_SCOPES = ['catalog.products.read', 'catalog.categories.read', 'catalog.promotions.read', 'inventory.stock.read'];

export const KEYS = {
  tenantA: 'ck_test_TenantAllScopesKey00000000000000000001',
  tenantASecond: 'ck_test_TenantAllScopesKey00000000000000000002',
  tenantAStore1: 'ck_test_TenantAStoreOneKey0000000000000000001',
  tenantACategoriesOnly: 'ck_test_TenantACategoriesOnly00000000000000001',
  tenantAProductsOnly: 'ck_test_TenantAProductsOnlyKey000000000000000001',
  tenantANoStores: 'ck_test_TenantANoStoresKey0000000000000000001',
  tenantB: 'ck_test_TenantBAllScopesKey00000000000000000001',
  revoked: 'ck_test_TenantARevokedKey000000000000000000001',
  expired: 'ck_test_TenantAExpiredKey000000000000000000001',
  disabledClient: 'ck_test_DisabledClientKey000000000000000000001',
  revokedClient: 'ck_test_RevokedClientKey0000000000000000000001',
  production: 'ck_live_TenantAProductionKey0000000000000000001',
  unknown: 'ck_test_NeverIssuedKey0000000000000000000000001',
} as const;

/** Values that exist only in internal columns and tables; none may ever appear in a response. */
export const INTERNAL_VALUES = [
  '0.4173', '9.8152', '0.4174', '58.37', '0.3917', '1.0417', '1.0419', '77.71',
  'Secret Supplier Wholesale', 'hidden-orders@supplier.example', 'SUPSKU-99812', 'SUPSKU-99813',
  'Stafford Hiddenname', 'Petra Backoffice', 'Internal shrinkage XYZ', 'Counted by night shift QQ',
  'internal-template-zz9', 'canvasSecret', 'stf_a_1', 'stf_a_2', 'sup_a_1', 'mov_a_',
];

type Row = Record<string, unknown>;

function product(id: string, storeId: string, fields: Row): Row {
  return {
    id, storeId, categoryId: null, name: id, sku: id.toUpperCase(), barcode: null, brand: null, size: null, unitType: 'item',
    sellingPriceGross: '1.20', sellingPriceNet: '1.00', taxCategory: 'STANDARD', vatRateId: storeId.startsWith('sto_b') ? 'vat_b_std' : 'vat_a_std',
    isActive: true, variablePrice: false, ageRestricted: false, alcoholRestricted: false, tobaccoRestricted: false, vapeRestricted: false,
    updatedAt: '2026-10-01T08:00:00.000Z', costPrice: '0.4173', packCost: '9.8152', unitCost: '0.4174', marginPercent: '58.37',
    supplierId: storeId.startsWith('sto_b') ? null : 'sup_a_1', supplierSku: 'SUPSKU-99812',
    createdByStaffId: storeId.startsWith('sto_b') ? null : 'stf_a_1', updatedByStaffId: storeId.startsWith('sto_b') ? null : 'stf_a_2',
    ...fields,
  };
}

function stock(productId: string, quantity: string, reorderLevel: string, fields: Row = {}): Row {
  return {
    productId, trackStock: true, quantity, reorderLevel, updatedAt: '2026-10-03T07:00:00.000Z',
    costLayers: [{ quantity, unitCost: '0.3917', receivedAt: '2026-09-30T06:00:00.000Z' }], ...fields,
  };
}

function category(id: string, storeId: string, name: string, sortOrder: number, fields: Row = {}): Row {
  return {
    id, storeId, parentCategoryId: null, name, code: null, description: null, sortOrder, isActive: true, isArchived: false,
    updatedAt: '2026-10-01T08:00:00.000Z', ...fields,
  };
}

export const FILLER_COUNT = 120;

export function testDataset(): Record<string, unknown[]> {
  const fillers = Array.from({ length: FILLER_COUNT }, (_, i) =>
    product(`prd_a2_f${String(i).padStart(3, '0')}`, 'sto_a2', { name: `Filler item ${i}`, sku: `FILL-${i}`, updatedAt: '2026-09-01T00:00:00.000Z' }));
  return {
    tenants: [
      { id: 'ten_a', name: 'Tenant A Stores Ltd', currency: 'GBP' },
      { id: 'ten_b', name: 'Tenant B GmbH', currency: 'EUR' },
    ],
    stores: [
      { id: 'sto_a1', tenantId: 'ten_a', name: 'A One' },
      { id: 'sto_a2', tenantId: 'ten_a', name: 'A Two' },
      { id: 'sto_b1', tenantId: 'ten_b', name: 'B One' },
    ],
    vatRates: [
      { id: 'vat_a_std', tenantId: 'ten_a', code: 'S', name: 'Standard rate', percentage: '20' },
      { id: 'vat_a_red', tenantId: 'ten_a', code: 'R', name: 'Reduced rate', percentage: '5.5' },
      { id: 'vat_b_std', tenantId: 'ten_b', code: 'N', name: 'Normal', percentage: '19.00' },
    ],
    suppliers: [{ id: 'sup_a_1', tenantId: 'ten_a', name: 'Secret Supplier Wholesale', contactEmail: 'hidden-orders@supplier.example' }],
    staff: [
      { id: 'stf_a_1', tenantId: 'ten_a', name: 'Stafford Hiddenname' },
      { id: 'stf_a_2', tenantId: 'ten_a', name: 'Petra Backoffice' },
    ],
    categories: [
      category('cat_a1_drinks', 'sto_a1', 'Drinks', 10, { code: 'DR', description: 'All drinks' }),
      category('cat_a1_juice', 'sto_a1', 'juices', 5, { parentCategoryId: 'cat_a1_drinks' }),
      category('cat_a1_soft', 'sto_a1', 'Soft drinks', 5, { parentCategoryId: 'cat_a1_drinks' }),
      category('cat_a1_desserts', 'sto_a1', 'Desserts', 10),
      category('cat_a1_snacks_x', 'sto_a1', 'Snacks', 20),
      category('cat_a1_snacks_Y', 'sto_a1', 'snacks', 20),
      category('cat_a1_seasonal', 'sto_a1', 'Seasonal', 1, { isActive: false }),
      category('cat_a1_archived', 'sto_a1', 'Archived range', 2, { isArchived: true }),
      category('cat_a1_archived_off', 'sto_a1', 'Archived and inactive', 3, { isArchived: true, isActive: false }),
      category('cat_a2_drinks', 'sto_a2', 'Drinks', 10),
      category('cat_b1_drinks', 'sto_b1', 'Getränke', 10),
    ],
    products: [
      product('prd_a1_cola', 'sto_a1', {
        categoryId: 'cat_a1_soft', name: 'Cola 330ml can', sku: 'COLA-330', barcode: '5000112637922', brand: 'Fizz', size: '330ml',
        updatedAt: '2026-10-02T09:30:00.000Z',
      }),
      product('prd_a1_diet', 'sto_a1', {
        categoryId: 'cat_a1_soft', name: 'Diet Cola 330ml can', sku: 'COLA-330-D', barcode: '5000112637939', brand: 'Fizz',
        updatedAt: '2026-10-05T12:00:00.123Z',
      }),
      product('prd_a1_juice', 'sto_a1', {
        categoryId: 'cat_a1_juice', name: '100% Orange Juice', sku: 'OJ_1L', brand: 'Sunny', sellingPriceGross: '2.1', sellingPriceNet: '2',
        vatRateId: 'vat_a_red', taxCategory: 'REDUCED', updatedAt: '2026-10-03T00:00:00.000Z',
      }),
      product('prd_a1_creme', 'sto_a1', {
        categoryId: 'cat_a1_desserts', name: 'Crème Brûlée Dessert', sku: 'DES-01', brand: 'Maison', sellingPriceGross: '2.5', sellingPriceNet: '2.08',
      }),
      product('prd_a1_bananas', 'sto_a1', {
        name: 'Bananas', sku: 'BAN-KG', unitType: 'kg', variablePrice: true, vatRateId: null, taxCategory: 'ZERO_RATED',
        sellingPriceGross: '0.98', sellingPriceNet: '0.98', supplierId: null, supplierSku: null,
      }),
      product('prd_a1_old', 'sto_a1', { categoryId: 'cat_a1_soft', name: 'Old Cola Recipe', sku: 'OLD-1', brand: 'Fizz', isActive: false }),
      product('prd_a1_beer', 'sto_a1', {
        categoryId: 'cat_a1_drinks', name: 'Lager 4 pack', sku: 'BEER-4', brand: 'Brewster', sellingPriceGross: '6.5', sellingPriceNet: '5.42',
        ageRestricted: true, alcoholRestricted: true, updatedAt: '2026-10-04T00:00:00.000Z',
      }),
      product('prd_a1_slash', 'sto_a1', { name: 'Back\\slash Snack', sku: 'BS-1', brand: 'Odd' }),
      product('prd_a2_cola', 'sto_a2', {
        categoryId: 'cat_a2_drinks', name: 'Cola 330ml can', sku: 'COLA-330', barcode: '5000112637922', brand: 'Fizz',
        updatedAt: '2026-10-02T09:30:00.000Z',
      }),
      product('prd_a2_vape', 'sto_a2', {
        name: 'Mint Vape 2ml', sku: 'VAPE-1', brand: 'Cloud', unitType: 'ml', ageRestricted: true, vapeRestricted: true,
        updatedAt: '2026-10-06T00:00:00.000Z',
      }),
      ...fillers,
      product('prd_b1_cola', 'sto_b1', {
        categoryId: 'cat_b1_drinks', name: 'Cola 330ml can', sku: 'COLA-330', barcode: '5000112637922', brand: 'Fizz',
        sellingPriceGross: '1.19', sellingPriceNet: '1.00',
      }),
    ],
    stockLevels: [
      stock('prd_a1_cola', '48', '12'),
      stock('prd_a1_diet', '12', '12'),
      stock('prd_a1_juice', '0', '3'),
      stock('prd_a1_creme', '-2.5', '1'),
      stock('prd_a1_bananas', '0.001', '5', { updatedAt: '2026-10-10T10:00:00.000Z' }),
      stock('prd_a1_old', '5', '2'),
      stock('prd_a1_beer', '30', '6', { trackStock: false }),
      stock('prd_a2_cola', '12.001', '12'),
      stock('prd_a2_vape', '0.001', '0', { costLayers: [] }),
      stock('prd_b1_cola', '3', '10'),
    ],
    stockMovements: [
      { id: 'mov_a_1', productId: 'prd_a1_cola', kind: 'RECEIPT', quantityDelta: '48', reason: 'Internal shrinkage XYZ', staffId: 'stf_a_1', occurredAt: '2026-09-30T06:00:00.000Z' },
      { id: 'mov_a_2', productId: 'prd_a1_cola', kind: 'ADJUSTMENT', quantityDelta: '-1.5', reason: 'Counted by night shift QQ', staffId: 'stf_a_2', occurredAt: '2026-10-01T06:00:00.000Z' },
    ],
    promotions: [
      {
        id: 'pro_a1_meal', storeId: 'sto_a1', name: '3 drinks for 3.00', type: 'MULTI_BUY', status: 'ACTIVE',
        startsAt: '2026-01-01T00:00:00.000Z', endsAt: null, isSystemPreset: false,
        conditions: [{ kind: 'category_quantity', minQuantity: 3, categoryIds: ['cat_a1_soft'] }],
        actions: [{ kind: 'fixed_price', price: '3.00' }],
        builderConfig: { canvasSecret: { x: 1 }, template: 'internal-template-zz9' }, createdByStaffId: 'stf_a_1',
        updatedAt: '2026-10-01T00:00:00.000Z',
      },
    ],
    apiClients: [
      {
        id: 'cli_a_all', tenantId: 'ten_a', name: 'A ERP', status: 'ACTIVE', scopes: ALL_SCOPES, allowedStoreIds: null, rateLimitPerMinute: null,
        keys: [
          { id: 'key_a_all', key: KEYS.tenantA, expiresAt: null, revokedAt: null },
          { id: 'key_a_all_2', key: KEYS.tenantASecond, expiresAt: null, revokedAt: null },
          { id: 'key_a_revoked', key: KEYS.revoked, expiresAt: null, revokedAt: '2026-10-01T00:00:00.000Z' },
          { id: 'key_a_expired', key: KEYS.expired, expiresAt: '2026-01-01T00:00:00.000Z', revokedAt: null },
          { id: 'key_a_live', key: KEYS.production, expiresAt: null, revokedAt: null },
        ],
      },
      {
        id: 'cli_a_store1', tenantId: 'ten_a', name: 'A web shop', status: 'ACTIVE', scopes: ALL_SCOPES, allowedStoreIds: ['sto_a1'], rateLimitPerMinute: null,
        keys: [{ id: 'key_a_store1', key: KEYS.tenantAStore1, expiresAt: '2099-01-01T00:00:00.000Z', revokedAt: null }],
      },
      {
        id: 'cli_a_categories', tenantId: 'ten_a', name: 'A menu board', status: 'ACTIVE', scopes: ['catalog.categories.read'], allowedStoreIds: null, rateLimitPerMinute: null,
        keys: [{ id: 'key_a_categories', key: KEYS.tenantACategoriesOnly, expiresAt: null, revokedAt: null }],
      },
      {
        id: 'cli_a_products', tenantId: 'ten_a', name: 'A price feed', status: 'ACTIVE', scopes: ['catalog.products.read'], allowedStoreIds: null, rateLimitPerMinute: null,
        keys: [{ id: 'key_a_products', key: KEYS.tenantAProductsOnly, expiresAt: null, revokedAt: null }],
      },
      {
        id: 'cli_a_nostores', tenantId: 'ten_a', name: 'A no stores', status: 'ACTIVE', scopes: ALL_SCOPES, allowedStoreIds: [], rateLimitPerMinute: null,
        keys: [{ id: 'key_a_nostores', key: KEYS.tenantANoStores, expiresAt: null, revokedAt: null }],
      },
      {
        id: 'cli_a_disabled', tenantId: 'ten_a', name: 'A disabled', status: 'DISABLED', scopes: ALL_SCOPES, allowedStoreIds: null, rateLimitPerMinute: null,
        keys: [{ id: 'key_a_disabled', key: KEYS.disabledClient, expiresAt: null, revokedAt: null }],
      },
      {
        id: 'cli_a_revoked', tenantId: 'ten_a', name: 'A revoked', status: 'REVOKED', scopes: ALL_SCOPES, allowedStoreIds: null, rateLimitPerMinute: null,
        keys: [{ id: 'key_a_revokedclient', key: KEYS.revokedClient, expiresAt: null, revokedAt: null }],
      },
      {
        id: 'cli_b_all', tenantId: 'ten_b', name: 'B ERP', status: 'ACTIVE', scopes: ALL_SCOPES, allowedStoreIds: null, rateLimitPerMinute: null,
        keys: [{ id: 'key_b_all', key: KEYS.tenantB, expiresAt: null, revokedAt: null }],
      },
    ],
  };
}
