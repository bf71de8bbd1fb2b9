import { defineList, equals, filtersOf, flag, instant, since } from '../../lists/list-definition.js';
import { STOCK_ROW, StockRowView } from './stock-row.view.js';
import { ChangedSinceParam, PageQuery } from '../../lists/page.js';
import type { Instant } from '../../values/formats.js';
import { BooleanParam, DateTimeParam, IdParam, StoreIdParam, SkuParam, BarcodeParam } from '../../params/params.js';

/** availability = low_stock, with exact numeric comparisons, over stock levels `s`. */
const LOW_STOCK = '(s.track_stock AND s.quantity > 0 AND s.quantity <= s.reorder_level)';

/**
 * The filters of the stock list (docs/api-rules.md#filters), in the order their conditions are
 * written: on products `p` and their stock level `s` (left-joined), and the index that serves each.
 */
const FILTERS = filtersOf<ListStockQuery>()({
  activeOnly: flag('p.is_active'),
  productId: equals('p.id', 'products_id_tenant_id_store_id_key'),
  sku: equals('p.sku', 'products_tenant_sku_idx'),
  barcode: equals('p.barcode', 'products_tenant_barcode_idx'),
  categoryId: equals('p.category_id', 'products_tenant_category_idx'),
  // On the row's updatedAt: the later of the product's and its stock level's update times. No index
  // holds that value: the rows in scope are read in id order and filtered.
  updatedSince: since('GREATEST(p.updated_at, s.updated_at)'),
  lowStockOnly: flag(LOW_STOCK, 'stock_levels_low_stock_idx'),
});

export class ListStockQuery extends PageQuery {
  @StoreIdParam()
  storeId?: string;

  @IdParam({ description: 'Only this product.', example: 'prd_camden_001' })
  productId?: string;

  @SkuParam()
  sku?: string;

  @BarcodeParam()
  barcode?: string;

  @IdParam({
    description: "Only products whose own category is this one (not its subcategories').",
    example: 'cat_camden_sd',
  })
  categoryId?: string;

  @DateTimeParam({
    description:
      "Only rows with updatedAt at or after this instant (a row's updatedAt is the later of the product's and " +
      "its stock level's update times). To keep a copy in sync, use changedSince instead: timestamps written " +
      'by other systems or by transactions that commit late can fall behind the largest updatedAt already seen.',
    example: '2026-10-01T00:00:00Z',
  })
  updatedSince?: Instant;

  @BooleanParam({
    description: 'true: only rows whose availability is low_stock. false filters nothing.',
    example: true,
  })
  lowStockOnly?: boolean;

  @BooleanParam({ description: 'true: only active products; false: inactive ones too.', default: true, example: false })
  activeOnly: boolean = true;

  @ChangedSinceParam({
    filters: FILTERS,
    description:
      'A sync position (the `Sync-Position` header of an earlier walk): only rows whose product or stock ' +
      'level changed since, inactive products included. Needs activeOnly=false; combines only with storeId, ' +
      'pageSize and cursor. Follow the `Link` next cursors to the end, then walk /v1/inventory/stock-removals ' +
      "from the same position (what left your view), then store this walk's new Sync-Position.",
  })
  changedSince?: string;
}

/**
 * The stock list: one row per product, with or without a stock record, written by PostgreSQL as JSON
 * text in the decided key order (StockRowView): quantities at their scale of 3, availability derived
 * by the contract's rule with exact comparisons, updatedAt the later of the product's and the stock
 * level's. A product without a stock level reads trackStock false, zero quantities and not_tracked.
 * Cost layers and movements are never read.
 */
export const STOCK_LIST = defineList(ListStockQuery, StockRowView, {
  name: 'stock',
  from: { table: 'products', alias: 'p' },
  key: 'p.id',
  filterJoins: [{ kind: 'LEFT JOIN', table: 'stock_levels', alias: 's', on: 's.product_id = p.id' }],
  filters: FILTERS,
  // Every product in scope has exactly one row: without row filters the total is the product count,
  // read from product_counts (kept exact by triggers).
  count: { from: { table: 'product_counts', alias: 'c' }, sum: 'c.n', filters: { activeOnly: 'c.is_active' } },
  // Low stock alone: the low-stock partial index holds every answer (with the store and the
  // product's isActive), so neither the count nor the ids join the products.
  variants: [
    {
      when: 'lowStockOnly',
      from: { table: 'stock_levels', alias: 's' },
      key: 's.product_id',
      filters: { lowStockOnly: LOW_STOCK, activeOnly: 's.product_is_active' },
    },
  ],
  row: STOCK_ROW,
  // A stock row changes with its product or its stock level (a deleted stock level marks its product).
  sync: {
    marker: 'change_xact',
    removalId: 'productId',
    inputs: [{ kind: 'rows', from: { table: 'stock_levels', alias: 's' }, key: 's.product_id' }],
  },
  examples: [
    { description: 'every store, page 1', stores: 'all', filters: { activeOnly: true } },
    {
      description: 'low stock alone, one store (partial index)',
      stores: 'one',
      filters: { activeOnly: true, lowStockOnly: true },
      answers: ['prd_a1_bananas', 'prd_a1_diet'],
    },
    {
      description: 'product filters with low stock, a list of stores',
      stores: 'list',
      filters: {
        activeOnly: false,
        lowStockOnly: true,
        productId: 'prd_a1_diet',
        sku: 'COLA-330-D',
        barcode: '5000112637939',
        categoryId: 'cat_a1_soft',
      },
      answers: ['prd_a1_diet'],
    },
    {
      description: 'updatedSince',
      stores: 'all',
      filters: { activeOnly: true, updatedSince: instant('2026-10-03T00:00:00Z') },
    },
    {
      description: 'after an id (cursor)',
      stores: 'all',
      filters: { activeOnly: true },
      window: { pageSize: 50, offset: 0, afterId: 'prd_a1_cola' },
    },
    {
      description: 'an incremental sync walk begins (rows whose product or stock level changed)',
      stores: 'one',
      filters: { activeOnly: false },
      window: { pageSize: 100, offset: 0 },
      sync: { changedSince: '1', takeHorizon: true },
    },
    {
      description: 'a page of an incremental sync walk',
      stores: 'all',
      filters: { activeOnly: false },
      window: { pageSize: 100, offset: 0, afterId: 'prd_a1_cola' },
      sync: { changedSince: '1', caughtUpTo: '2' },
    },
  ],
});
