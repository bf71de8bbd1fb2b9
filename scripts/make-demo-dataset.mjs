// Writes fixtures/demo.json: a small convenience-store chain and a second tenant, deterministic.
// Run: node scripts/make-demo-dataset.mjs
import { writeFileSync } from 'node:fs';

let seed = 20261121;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (list) => list[Math.floor(rand() * list.length)];
const money = (n) => n.toFixed(2);
const at = (day, hour = 8) => new Date(Date.UTC(2026, 9, 1 + day, hour, 0, 0)).toISOString();

const tenants = [
  { id: 'ten_cornershop', name: 'Corner Shop Group Ltd', currency: 'GBP' },
  { id: 'ten_fjord', name: 'Fjord Kiosk AS', currency: 'NOK' },
];
const stores = [
  { id: 'sto_camden', tenantId: 'ten_cornershop', name: 'Camden High Street' },
  { id: 'sto_islington', tenantId: 'ten_cornershop', name: 'Islington Upper Street' },
  { id: 'sto_brixton', tenantId: 'ten_cornershop', name: 'Brixton Station Road' },
  { id: 'sto_bergen', tenantId: 'ten_fjord', name: 'Bergen Bryggen' },
];
const vatRates = [
  { id: 'vat_cs_std', tenantId: 'ten_cornershop', code: 'S', name: 'Standard rate', percentage: '20.00' },
  { id: 'vat_cs_red', tenantId: 'ten_cornershop', code: 'R', name: 'Reduced rate', percentage: '5.00' },
  { id: 'vat_cs_zero', tenantId: 'ten_cornershop', code: 'Z', name: 'Zero rate', percentage: '0.00' },
  { id: 'vat_fj_std', tenantId: 'ten_fjord', code: 'H', name: 'Alminnelig sats', percentage: '25.00' },
  { id: 'vat_fj_food', tenantId: 'ten_fjord', code: 'M', name: 'Næringsmidler', percentage: '15.00' },
];
const suppliers = [
  {
    id: 'sup_cs_bakery',
    tenantId: 'ten_cornershop',
    name: 'North Bakery Wholesale',
    contactEmail: 'orders@northbakery.example',
  },
  {
    id: 'sup_cs_drinks',
    tenantId: 'ten_cornershop',
    name: 'Thames Beverage Distributors',
    contactEmail: 'trade@thamesbev.example',
  },
  { id: 'sup_cs_cashcarry', tenantId: 'ten_cornershop', name: 'Westway Cash and Carry', contactEmail: null },
  {
    id: 'sup_fj_grossist',
    tenantId: 'ten_fjord',
    name: 'Vestland Grossist AS',
    contactEmail: 'ordre@vestland.example',
  },
];
const staff = [
  { id: 'stf_cs_sam', tenantId: 'ten_cornershop', name: 'Sam Tillerman' },
  { id: 'stf_cs_priya', tenantId: 'ten_cornershop', name: 'Priya Ramaswamy' },
  { id: 'stf_fj_ola', tenantId: 'ten_fjord', name: 'Ola Nordmannsen' },
];

// A category tree per store: top-level groups with children.
const tree = [
  [
    'Drinks',
    'DR',
    [
      ['Soft Drinks', 'SD'],
      ['Water', 'WA'],
      ['Beer and Cider', 'BC'],
      ['Wine', 'WI'],
    ],
  ],
  [
    'Food Cupboard',
    'FC',
    [
      ['Crisps and Snacks', 'CS'],
      ['Confectionery', 'CO'],
      ['Tins and Jars', 'TJ'],
    ],
  ],
  [
    'Fresh',
    'FR',
    [
      ['Bakery', 'BK'],
      ['Dairy', 'DA'],
      ['Fruit and Veg', 'FV'],
    ],
  ],
  [
    'Household',
    'HH',
    [
      ['Cleaning', 'CL'],
      ['Paper', 'PA'],
    ],
  ],
  [
    'Tobacco and Vape',
    'TV',
    [
      ['Tobacco', 'TO'],
      ['Vapes', 'VA'],
    ],
  ],
];
const categories = [];
const storeCats = {};
for (const store of stores) {
  const prefix = store.id.replace('sto_', '');
  storeCats[store.id] = {};
  tree.forEach(([name, code, children], gi) => {
    const parentId = `cat_${prefix}_${code.toLowerCase()}`;
    categories.push({
      id: parentId,
      storeId: store.id,
      parentCategoryId: null,
      name,
      code,
      description: `${name} aisle`,
      sortOrder: (gi + 1) * 10,
      isActive: true,
      isArchived: false,
      updatedAt: at(0),
    });
    children.forEach(([childName, childCode], ci) => {
      const id = `cat_${prefix}_${childCode.toLowerCase()}`;
      storeCats[store.id][childCode] = id;
      categories.push({
        id,
        storeId: store.id,
        parentCategoryId: parentId,
        name: childName,
        code: childCode,
        description: null,
        sortOrder: ci === 1 ? 10 : (ci + 1) * 10,
        isActive: true,
        isArchived: false,
        updatedAt: at(1),
      });
    });
  });
  // An inactive and an archived category in every store.
  categories.push({
    id: `cat_${prefix}_seasonal`,
    storeId: store.id,
    parentCategoryId: null,
    name: 'Seasonal',
    code: 'SE',
    description: 'Christmas and Easter lines',
    sortOrder: 90,
    isActive: false,
    isArchived: false,
    updatedAt: at(2),
  });
  categories.push({
    id: `cat_${prefix}_old`,
    storeId: store.id,
    parentCategoryId: null,
    name: 'Discontinued lines',
    code: null,
    description: null,
    sortOrder: 99,
    isActive: false,
    isArchived: true,
    updatedAt: at(2),
  });
}

const catalogue = [
  // [name, brand, size, unit, category code, gross price, vat, flags]
  ['Cola 330ml can', 'Fizz', '330ml', 'item', 'SD', 1.2, 'std'],
  ['Diet Cola 330ml can', 'Fizz', '330ml', 'item', 'SD', 1.2, 'std'],
  ['Lemonade 2L bottle', 'Fizz', '2L', 'item', 'SD', 2.1, 'std'],
  ['Orange Juice 1L', 'Sunny Grove', '1L', 'item', 'SD', 1.85, 'std'],
  ['Energy Drink 250ml', 'Volt', '250ml', 'item', 'SD', 1.5, 'std'],
  ['Still Water 500ml', 'Highland Spring Co', '500ml', 'item', 'WA', 0.85, 'std'],
  ['Sparkling Water 1L', 'Highland Spring Co', '1L', 'item', 'WA', 1.1, 'std'],
  ['Lager 4 x 440ml', 'Brewster', '4 x 440ml', 'item', 'BC', 6.5, 'std', 'alcohol'],
  ['Craft IPA 330ml', 'Hop Yard', '330ml', 'item', 'BC', 2.75, 'std', 'alcohol'],
  ['Apple Cider 500ml', 'Orchard Lane', '500ml', 'item', 'BC', 2.2, 'std', 'alcohol'],
  ['Merlot 75cl', 'Vina Sol', '75cl', 'item', 'WI', 8.99, 'std', 'alcohol'],
  ['Sauvignon Blanc 75cl', 'Kiwi Cove', '75cl', 'item', 'WI', 9.49, 'std', 'alcohol'],
  ['Ready Salted Crisps 32g', 'Crunchy', '32g', 'item', 'CS', 0.95, 'std'],
  ['Salt & Vinegar Crisps 32g', 'Crunchy', '32g', 'item', 'CS', 0.95, 'std'],
  ['Salted Peanuts 200g', 'Nutty', '200g', 'item', 'CS', 1.75, 'std'],
  ['Milk Chocolate Bar 45g', 'Cocoa & Co', '45g', 'item', 'CO', 0.99, 'std'],
  ['Fruit Gums 150g', 'Chewy', '150g', 'item', 'CO', 1.25, 'std'],
  ['Baked Beans 415g', 'Harvest', '415g', 'item', 'TJ', 0.89, 'zero'],
  ['Chopped Tomatoes 400g', 'Harvest', '400g', 'item', 'TJ', 0.65, 'zero'],
  ['Strawberry Jam 340g', 'Hedgerow', '340g', 'item', 'TJ', 1.95, 'zero'],
  ['White Sliced Loaf 800g', 'North Bakery', '800g', 'item', 'BK', 1.4, 'zero'],
  ['Croissant', null, null, 'item', 'BK', 0.9, 'zero'],
  ['Semi-Skimmed Milk 2 pints', 'Meadow', '1.136L', 'item', 'DA', 1.45, 'zero'],
  ['Free Range Eggs x6', 'Meadow', '6', 'item', 'DA', 2.3, 'zero'],
  ['Cheddar Cheese 400g', 'Meadow', '400g', 'item', 'DA', 3.75, 'zero'],
  ['Bananas loose', null, null, 'kg', 'FV', 0.98, 'zero', 'variable'],
  ['Apples loose', null, null, 'kg', 'FV', 2.2, 'zero', 'variable'],
  ['Washing Up Liquid 450ml', 'Sparkle', '450ml', 'item', 'CL', 1.3, 'std'],
  ['Toilet Roll 4 pack', 'Softy', '4 rolls', 'item', 'PA', 2.5, 'std'],
  ['Kitchen Towel 2 pack', 'Softy', '2 rolls', 'item', 'PA', 2.1, 'std'],
  ['Rolling Tobacco 30g', 'Golden Leaf', '30g', 'g', 'TO', 22.5, 'std', 'tobacco'],
  ['Cigarette Papers', 'Golden Leaf', null, 'item', 'TO', 0.6, 'std', 'tobacco'],
  ['Disposable Vape Mint', 'Cloud', '2ml', 'ml', 'VA', 5.99, 'std', 'vape'],
  ['Vape Liquid Berry 10ml', 'Cloud', '10ml', 'ml', 'VA', 3.99, 'std', 'vape'],
  ['Paracetamol 16 tablets', 'Relief', '16', 'item', 'CL', 0.75, 'std', 'age'],
  ['Lighter', 'Flick', null, 'item', 'TO', 1.0, 'std', 'age'],
  ['Espresso Beans 1kg', 'Roastery', '1kg', 'item', 'TJ', 12.5, 'zero'],
  ['Cabernet Sauvignon 75cl', 'Vina Sol', '75cl', 'item', 'WI', 10.99, 'std', 'alcohol'],
];

const vatFor = (tenantId, kind) => {
  if (tenantId === 'ten_fjord') return kind === 'zero' ? 'vat_fj_food' : 'vat_fj_std';
  return kind === 'std' ? 'vat_cs_std' : kind === 'red' ? 'vat_cs_red' : 'vat_cs_zero';
};
const percent = Object.fromEntries(vatRates.map((v) => [v.id, Number(v.percentage)]));
const products = [];
const stockLevels = [];
const stockMovements = [];
let barcodeSeq = 5010000000000;
const productStores = [
  ['sto_camden', 38],
  ['sto_islington', 38],
  ['sto_brixton', 38],
  ['sto_bergen', 38],
];
for (const [storeId, count] of productStores) {
  const store = stores.find((s) => s.id === storeId);
  const prefix = storeId.replace('sto_', '');
  const fjord = store.tenantId === 'ten_fjord';
  for (let i = 0; i < count; i++) {
    const [name, brand, size, unitType, catCode, price, vatKind, flag] = catalogue[i];
    const id = `prd_${prefix}_${String(i + 1).padStart(3, '0')}`;
    const gross = fjord ? price * 11.5 : price;
    const vatRateId = vatFor(store.tenantId, vatKind);
    const net = gross / (1 + percent[vatRateId] / 100);
    const cost = net * (0.45 + rand() * 0.2);
    const staffId = fjord ? 'stf_fj_ola' : pick(['stf_cs_sam', 'stf_cs_priya']);
    const supplierId = fjord
      ? 'sup_fj_grossist'
      : catCode === 'BK'
        ? 'sup_cs_bakery'
        : ['SD', 'WA', 'BC', 'WI'].includes(catCode)
          ? 'sup_cs_drinks'
          : 'sup_cs_cashcarry';
    const taxCategory = vatKind === 'zero' ? (fjord ? 'REDUCED' : 'ZERO_RATED') : 'STANDARD';
    products.push({
      id,
      storeId,
      categoryId: i === 21 ? null : storeCats[storeId][catCode],
      name,
      sku: `${catCode}-${String(100 + i)}`,
      barcode: i === 21 || i === 25 || i === 26 ? null : String(barcodeSeq++),
      brand,
      size,
      unitType,
      sellingPriceGross: money(gross),
      sellingPriceNet: money(net),
      taxCategory: i === 36 && !fjord ? 'UNCLASSIFIED' : taxCategory,
      vatRateId: i === 36 && !fjord ? null : vatRateId,
      isActive: i !== 37 && i !== 35,
      variablePrice: flag === 'variable',
      ageRestricted: ['alcohol', 'tobacco', 'vape', 'age'].includes(flag),
      alcoholRestricted: flag === 'alcohol',
      tobaccoRestricted: flag === 'tobacco',
      vapeRestricted: flag === 'vape',
      updatedAt: at(2 + (i % 20), 9 + (i % 8)),
      costPrice: cost.toFixed(4),
      packCost: (cost * 12).toFixed(4),
      unitCost: cost.toFixed(4),
      marginPercent: (((net - cost) / net) * 100).toFixed(2),
      supplierId,
      supplierSku: `SUP-${prefix.toUpperCase()}-${7700 + i}`,
      createdByStaffId: staffId,
      updatedByStaffId: staffId,
    });
    if (i === 29) continue; // no stock record at all
    // Every availability state: out (0 and negative), low, exactly on the reorder level, in stock, untracked.
    const reorder = unitType === 'kg' ? 5 : 12;
    const states = ['in', 'in', 'in', 'low', 'out', 'equal', 'in', 'negative', 'fraction', 'untracked'];
    const state = states[i % states.length];
    const quantity = {
      in: String(20 + Math.floor(rand() * 80)),
      low: '4',
      out: '0',
      equal: String(reorder),
      negative: '-2.500',
      fraction: '0.001',
      untracked: '7',
    }[state];
    const level = {
      productId: id,
      trackStock: state !== 'untracked',
      quantity,
      reorderLevel: String(reorder),
      updatedAt: at(5 + (i % 15), 7),
      costLayers: state === 'in' ? [{ quantity, unitCost: cost.toFixed(4), receivedAt: at(4, 6) }] : [],
    };
    stockLevels.push(level);
    if (i % 4 === 0) {
      stockMovements.push({
        id: `mov_${prefix}_${i}_r`,
        productId: id,
        kind: 'RECEIPT',
        quantityDelta: '24',
        reason: 'Weekly delivery from depot',
        staffId,
        occurredAt: at(4, 6),
      });
      stockMovements.push({
        id: `mov_${prefix}_${i}_w`,
        productId: id,
        kind: 'WASTE',
        quantityDelta: '-1',
        reason: 'Damaged in backroom spillage',
        staffId,
        occurredAt: at(6, 18),
      });
    }
  }
}

const byStore = (storeId, index) => products.filter((p) => p.storeId === storeId)[index].id;
const promotions = [];
const promo = (p) =>
  promotions.push({
    isSystemPreset: false,
    builderConfig: { canvas: { x: 120, y: 40 }, template: 'builder-v2-internal' },
    createdByStaffId: 'stf_cs_priya',
    updatedAt: at(0, 12),
    ...p,
  });
for (const [storeId, prefix] of [
  ['sto_camden', 'camden'],
  ['sto_islington', 'islington'],
  ['sto_brixton', 'brixton'],
]) {
  promo({
    id: `pro_${prefix}_meal`,
    storeId,
    name: '3 soft drinks for 3.00',
    type: 'MULTI_BUY',
    status: 'ACTIVE',
    startsAt: '2026-10-01T00:00:00.000Z',
    endsAt: null,
    conditions: [{ kind: 'category_quantity', minQuantity: 3, categoryIds: [storeCats[storeId].SD] }],
    actions: [{ kind: 'fixed_price', price: '3.00' }],
  });
  promo({
    id: `pro_${prefix}_crisps`,
    storeId,
    name: 'Crisps: buy 2, cheapest free',
    type: 'BUY_X_GET_Y',
    status: 'ACTIVE',
    startsAt: '2026-11-01T00:00:00.000Z',
    endsAt: '2027-01-31T23:59:59.999Z',
    conditions: [
      { kind: 'product_quantity', minQuantity: 2, productIds: [byStore(storeId, 12), byStore(storeId, 13)] },
    ],
    actions: [{ kind: 'free_items', quantity: 1, which: 'cheapest' }],
  });
  promo({
    id: `pro_${prefix}_wine`,
    storeId,
    name: '10% off wine',
    type: 'PERCENT_OFF',
    status: 'ACTIVE',
    startsAt: null,
    endsAt: null,
    conditions: [{ kind: 'category_quantity', minQuantity: 1, categoryIds: [storeCats[storeId].WI] }],
    actions: [{ kind: 'percent_off', percent: '10', target: 'qualifying_items' }],
  });
  promo({
    id: `pro_${prefix}_spend`,
    storeId,
    name: 'Spend 20, save 2',
    type: 'SPEND_AND_SAVE',
    status: 'ACTIVE',
    startsAt: '2026-11-15T00:00:00.000Z',
    endsAt: '2026-12-24T23:59:59.000Z',
    conditions: [
      { kind: 'basket_spend', minSpend: '20.00' },
      { kind: 'customer_group', group: 'LOYALTY_MEMBERS' },
    ],
    actions: [{ kind: 'amount_off', amount: '2.00', target: 'basket' }],
  });
  promo({
    id: `pro_${prefix}_bread`,
    storeId,
    name: 'Bread 50p off after 4pm',
    type: 'AMOUNT_OFF',
    status: 'PAUSED',
    startsAt: '2026-10-01T00:00:00.000Z',
    endsAt: null,
    conditions: [
      { kind: 'product_quantity', minQuantity: 1, productIds: [byStore(storeId, 20)] },
      { kind: 'time_of_day', from: '16:00', to: '19:00' },
    ],
    actions: [{ kind: 'amount_off', amount: '0.50', target: 'qualifying_items' }],
  });
  promo({
    id: `pro_${prefix}_breakfast`,
    storeId,
    name: 'Breakfast bundle 4.00',
    type: 'BUNDLE',
    status: 'ACTIVE',
    startsAt: '2027-01-01T00:00:00.000Z',
    endsAt: '2027-03-31T23:59:59.000Z',
    conditions: [
      {
        kind: 'product_quantity',
        minQuantity: 3,
        productIds: [byStore(storeId, 20), byStore(storeId, 22), byStore(storeId, 23)],
      },
    ],
    actions: [{ kind: 'fixed_price', price: '4.00' }],
  });
  promo({
    id: `pro_${prefix}_milk`,
    storeId,
    name: 'Milk 1.20',
    type: 'FIXED_PRICE',
    status: 'ACTIVE',
    startsAt: '2026-09-01T00:00:00.000Z',
    endsAt: '2026-09-30T23:59:59.000Z',
    conditions: [{ kind: 'product_quantity', minQuantity: 1, productIds: [byStore(storeId, 22)] }],
    actions: [{ kind: 'fixed_price', price: '1.20' }],
  });
  promo({
    id: `pro_${prefix}_draft`,
    storeId,
    name: 'Easter eggs (draft)',
    type: 'PERCENT_OFF',
    status: 'DRAFT',
    startsAt: '2027-03-20T00:00:00.000Z',
    endsAt: null,
    conditions: [],
    actions: [{ kind: 'percent_off', percent: '25', target: 'qualifying_items' }],
  });
  promo({
    id: `pro_${prefix}_archived`,
    storeId,
    name: 'Summer BBQ (ended)',
    type: 'MULTI_BUY',
    status: 'ARCHIVED',
    startsAt: '2026-06-01T00:00:00.000Z',
    endsAt: '2026-08-31T23:59:59.000Z',
    conditions: [{ kind: 'category_quantity', minQuantity: 2, categoryIds: [storeCats[storeId].BC] }],
    actions: [{ kind: 'amount_off', amount: '1.00', target: 'qualifying_items' }],
  });
  promo({
    id: `pro_${prefix}_coupon`,
    storeId,
    name: 'Newsletter coupon',
    type: 'COUPON',
    status: 'ACTIVE',
    startsAt: null,
    endsAt: null,
    conditions: [],
    actions: [{ kind: 'amount_off', amount: '1.00', target: 'basket' }],
  });
  promo({
    id: `pro_${prefix}_staff`,
    storeId,
    name: 'Staff discount 15%',
    type: 'STAFF_DISCOUNT',
    status: 'ACTIVE',
    startsAt: null,
    endsAt: null,
    conditions: [{ kind: 'customer_group', group: 'STAFF' }],
    actions: [{ kind: 'percent_off', percent: '15', target: 'basket' }],
  });
  promo({
    id: `pro_${prefix}_manual`,
    storeId,
    name: 'Manager override',
    type: 'MANUAL_DISCOUNT',
    status: 'ACTIVE',
    startsAt: null,
    endsAt: null,
    conditions: [],
    actions: [{ kind: 'amount_off', amount: '5.00', target: 'basket' }],
  });
  promo({
    id: `pro_${prefix}_preset`,
    storeId,
    name: 'POS round-down preset',
    type: 'AMOUNT_OFF',
    status: 'ACTIVE',
    startsAt: null,
    endsAt: null,
    isSystemPreset: true,
    conditions: [],
    actions: [{ kind: 'amount_off', amount: '0.01', target: 'basket' }],
  });
}
promotions.push({
  id: 'pro_bergen_kaffe',
  storeId: 'sto_bergen',
  name: 'Kaffe og bolle',
  type: 'BUNDLE',
  status: 'ACTIVE',
  startsAt: '2026-10-01T00:00:00.000Z',
  endsAt: null,
  isSystemPreset: false,
  conditions: [{ kind: 'product_quantity', minQuantity: 2, productIds: ['prd_bergen_022', 'prd_bergen_037'] }],
  actions: [{ kind: 'fixed_price', price: '49.00' }],
  builderConfig: null,
  createdByStaffId: 'stf_fj_ola',
  updatedAt: at(0, 12),
});

const all = ['catalog.products.read', 'catalog.categories.read', 'catalog.promotions.read', 'inventory.stock.read'];
const apiClients = [
  {
    id: 'cli_cs_erp',
    tenantId: 'ten_cornershop',
    name: 'Corner Shop ERP sync',
    status: 'ACTIVE',
    scopes: all,
    allowedStoreIds: null,
    rateLimitPerMinute: null,
    keys: [
      { id: 'key_cs_erp_1', key: 'ck_test_DemoErpSyncKey0000000000000000000001', expiresAt: null, revokedAt: null },
      {
        id: 'key_cs_erp_old',
        key: 'ck_test_DemoErpSyncKey0000000000000000000000',
        expiresAt: null,
        revokedAt: '2026-10-15T00:00:00.000Z',
      },
    ],
  },
  {
    id: 'cli_cs_web',
    tenantId: 'ten_cornershop',
    name: 'Camden click and collect site',
    status: 'ACTIVE',
    scopes: ['catalog.products.read', 'catalog.categories.read', 'inventory.stock.read'],
    allowedStoreIds: ['sto_camden'],
    rateLimitPerMinute: 300,
    keys: [
      { id: 'key_cs_web_1', key: 'ck_test_DemoCamdenWebsiteKey000000000000001', expiresAt: null, revokedAt: null },
    ],
  },
  {
    id: 'cli_cs_compare',
    tenantId: 'ten_cornershop',
    name: 'PriceCompare feed',
    status: 'ACTIVE',
    scopes: ['catalog.products.read', 'catalog.promotions.read'],
    allowedStoreIds: ['sto_islington', 'sto_brixton'],
    rateLimitPerMinute: 120,
    keys: [
      {
        id: 'key_cs_compare_1',
        key: 'ck_test_DemoPriceCompareKey000000000000001',
        expiresAt: '2027-12-31T00:00:00.000Z',
        revokedAt: null,
      },
    ],
  },
  {
    id: 'cli_cs_delivery',
    tenantId: 'ten_cornershop',
    name: 'QuickDrop delivery (suspended)',
    status: 'DISABLED',
    scopes: all,
    allowedStoreIds: null,
    rateLimitPerMinute: null,
    keys: [
      {
        id: 'key_cs_delivery_1',
        key: 'ck_test_DemoQuickDropKey00000000000000000001',
        expiresAt: null,
        revokedAt: null,
      },
    ],
  },
  {
    id: 'cli_fj_erp',
    tenantId: 'ten_fjord',
    name: 'Fjord Kiosk ERP',
    status: 'ACTIVE',
    scopes: all,
    allowedStoreIds: null,
    rateLimitPerMinute: null,
    keys: [
      { id: 'key_fj_erp_1', key: 'ck_test_DemoFjordErpKey000000000000000000001', expiresAt: null, revokedAt: null },
    ],
  },
];

const data = {
  tenants,
  stores,
  vatRates,
  suppliers,
  staff,
  categories,
  products,
  stockLevels,
  stockMovements,
  promotions,
  apiClients,
};
writeFileSync(new URL('../fixtures/demo.json', import.meta.url), JSON.stringify(data, null, 2) + '\n');
console.log(
  `fixtures/demo.json: ${products.length} products, ${categories.length} categories, ` +
    `${promotions.length} promotions, ${apiClients.length} clients`,
);
