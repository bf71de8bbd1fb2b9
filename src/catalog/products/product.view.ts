import { formatDecimal, toIsoMillis } from '../../shared/format/decimal.js';
import type { TaxCategory, UnitType } from './product.entity.js';

/** The columns a product query selects: public ones only, so internal columns never leave the database. */
export const PRODUCT_COLUMNS = {
  id: 'p.id',
  storeId: 'p.store_id',
  categoryId: 'p.category_id',
  name: 'p.name',
  sku: 'p.sku',
  barcode: 'p.barcode',
  brand: 'p.brand',
  size: 'p.size',
  unitType: 'p.unit_type',
  sellingPriceGross: 'p.selling_price_gross',
  sellingPriceNet: 'p.selling_price_net',
  taxCategory: 'p.tax_category',
  vatId: 'v.id',
  vatCode: 'v.code',
  vatName: 'v.name',
  vatPercentage: 'v.percentage',
  isActive: 'p.is_active',
  variablePrice: 'p.variable_price',
  ageRestricted: 'p.age_restricted',
  alcoholRestricted: 'p.alcohol_restricted',
  tobaccoRestricted: 'p.tobacco_restricted',
  vapeRestricted: 'p.vape_restricted',
  updatedAt: 'p.updated_at',
} as const;

export type ProductRow = {
  id: string; storeId: string; categoryId: string | null; name: string; sku: string; barcode: string | null;
  brand: string | null; size: string | null; unitType: UnitType; sellingPriceGross: string; sellingPriceNet: string;
  taxCategory: TaxCategory; vatId: string | null; vatCode: string | null; vatName: string | null;
  vatPercentage: string | null; isActive: boolean; variablePrice: boolean; ageRestricted: boolean;
  alcoholRestricted: boolean; tobaccoRestricted: boolean; vapeRestricted: boolean; updatedAt: Date;
};

export interface VatRateView {
  id: string;
  code: string;
  name: string;
  percentage: string;
}

export interface ProductView {
  id: string;
  storeId: string;
  categoryId: string | null;
  name: string;
  sku: string;
  barcode: string | null;
  brand: string | null;
  size: string | null;
  unitType: UnitType;
  sellingPriceGross: string;
  sellingPriceNet: string;
  taxCategory: TaxCategory;
  vatRate: VatRateView | null;
  isActive: boolean;
  variablePrice: boolean;
  ageRestricted: boolean;
  alcoholRestricted: boolean;
  tobaccoRestricted: boolean;
  vapeRestricted: boolean;
  updatedAt: string;
}

/** The Product of the contract, keys in the specification's order; nothing else can appear. */
export function toProductView(row: ProductRow): ProductView {
  return {
    id: row.id,
    storeId: row.storeId,
    categoryId: row.categoryId,
    name: row.name,
    sku: row.sku,
    barcode: row.barcode,
    brand: row.brand,
    size: row.size,
    unitType: row.unitType,
    sellingPriceGross: formatDecimal(row.sellingPriceGross, 2),
    sellingPriceNet: formatDecimal(row.sellingPriceNet, 2),
    taxCategory: row.taxCategory,
    vatRate:
      row.vatId === null
        ? null
        : { id: row.vatId, code: row.vatCode!, name: row.vatName!, percentage: formatDecimal(row.vatPercentage!, 2) },
    isActive: row.isActive,
    variablePrice: row.variablePrice,
    ageRestricted: row.ageRestricted,
    alcoholRestricted: row.alcoholRestricted,
    tobaccoRestricted: row.tobaccoRestricted,
    vapeRestricted: row.vapeRestricted,
    updatedAt: toIsoMillis(row.updatedAt),
  };
}
