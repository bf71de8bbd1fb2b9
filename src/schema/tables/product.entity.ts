import { Column, Entity } from 'typeorm';
import { DecimalColumn, IdColumn, IdPrimaryColumn, StoredRowColumn, TimestampColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

export const UNIT_TYPES = ['item', 'kg', 'g', 'litre', 'ml'] as const;
export type UnitType = (typeof UNIT_TYPES)[number];
export const TAX_CATEGORIES = ['STANDARD', 'ZERO_RATED', 'REDUCED', 'EXEMPT', 'OUT_OF_SCOPE', 'UNCLASSIFIED'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

/**
 * A product with its internal columns (cost, margin, supplier, staff). Only the product list's row
 * (PRODUCT_LIST in src/catalog/products/products.list.ts) turns a product into a response, and it
 * names every public field explicitly.
 */
@Entity({ name: 'products' })
@TenantRows({ store: 'store_id' })
export class Product {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('store_id') storeId: string;
  @IdColumn('category_id', { nullable: true }) categoryId: string | null;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) sku: string;
  @Column({ type: 'text', nullable: true }) barcode: string | null;
  @Column({ type: 'text', nullable: true }) brand: string | null;
  @Column({ type: 'text', nullable: true }) size: string | null;
  @Column({ name: 'unit_type', type: 'text' }) unitType: UnitType;
  @DecimalColumn('selling_price_gross', 14, 2) sellingPriceGross: string;
  @DecimalColumn('selling_price_net', 14, 2) sellingPriceNet: string;
  @Column({ name: 'tax_category', type: 'text' }) taxCategory: TaxCategory;
  @IdColumn('vat_rate_id', { nullable: true }) vatRateId: string | null;
  @Column({ name: 'is_active', type: 'boolean' }) isActive: boolean;
  @Column({ name: 'variable_price', type: 'boolean' }) variablePrice: boolean;
  @Column({ name: 'age_restricted', type: 'boolean' }) ageRestricted: boolean;
  @Column({ name: 'alcohol_restricted', type: 'boolean' }) alcoholRestricted: boolean;
  @Column({ name: 'tobacco_restricted', type: 'boolean' }) tobaccoRestricted: boolean;
  @Column({ name: 'vape_restricted', type: 'boolean' }) vapeRestricted: boolean;
  @TimestampColumn('updated_at') updatedAt: Date;
  /** The transaction that last changed the row (its xid8), set by the database: the sync position's unit. */
  @Column({ name: 'change_xact', type: 'bigint', insert: false, update: false, select: false }) changeXact: string;

  // Internal columns: never part of any /v1 response.
  @DecimalColumn('cost_price', 14, 4, { nullable: true }) costPrice: string | null;
  @DecimalColumn('pack_cost', 14, 4, { nullable: true }) packCost: string | null;
  @DecimalColumn('unit_cost', 14, 4, { nullable: true }) unitCost: string | null;
  @DecimalColumn('margin_percent', 9, 2, { nullable: true }) marginPercent: string | null;
  @IdColumn('supplier_id', { nullable: true }) supplierId: string | null;
  @Column({ name: 'supplier_sku', type: 'text', nullable: true }) supplierSku: string | null;
  @IdColumn('created_by_staff_id', { nullable: true }) createdByStaffId: string | null;
  @IdColumn('updated_by_staff_id', { nullable: true }) updatedByStaffId: string | null;

  /**
   * What `q` searches: lower(name sku barcode brand) joined by spaces, a column PostgreSQL generates
   * (see the initial migration); never written, never selected by default. Declared as a plain
   * column: a generated one would make TypeORM keep a typeorm_metadata table of its own.
   */
  @Column({ name: 'search_text', type: 'text', nullable: true, insert: false, update: false, select: false })
  searchText: string | null;

  /** The product row's and the stock row's parts read from this table (PRODUCT_ROW, STOCK_ROW; generated). */
  @StoredRowColumn('product_row_v1_1') productRow1: string | null;
  @StoredRowColumn('product_row_v1_3') productRow3: string | null;
  @StoredRowColumn('stock_row_v1_1') stockRow1: string | null;
}
