import type { DatasetProduct } from './validate-dataset.js';

/** The data set of docs/dataset-format.md, after validation. */
export interface DatasetTenant {
  id: string;
  name: string;
  currency: string;
}
export interface DatasetStore {
  id: string;
  tenantId: string;
  name: string;
}
export interface DatasetVatRate {
  id: string;
  tenantId: string;
  code: string;
  name: string;
  percentage: string;
}
export interface DatasetSupplier {
  id: string;
  tenantId: string;
  name: string;
  contactEmail: string | null;
}
export interface DatasetStaff {
  id: string;
  tenantId: string;
  name: string;
}
export interface DatasetCategory {
  id: string;
  storeId: string;
  parentCategoryId: string | null;
  name: string;
  code: string | null;
  description: string | null;
  sortOrder: number;
  isActive: boolean;
  isArchived: boolean;
  updatedAt: string;
}
export type { DatasetProduct };

export interface DatasetCostLayer {
  quantity: string;
  unitCost: string;
  receivedAt: string;
}
export interface DatasetStockLevel {
  productId: string;
  trackStock: boolean;
  quantity: string;
  reorderLevel: string;
  updatedAt: string;
  costLayers: DatasetCostLayer[];
}
export interface DatasetStockMovement {
  id: string;
  productId: string;
  kind: string;
  quantityDelta: string;
  reason: string | null;
  staffId: string | null;
  occurredAt: string;
}
export interface DatasetPromotion {
  id: string;
  storeId: string;
  name: string;
  type: string;
  status: string;
  startsAt: string | null;
  endsAt: string | null;
  isSystemPreset: boolean;
  conditions: unknown[];
  actions: unknown[];
  builderConfig: unknown;
  createdByStaffId: string | null;
  updatedAt: string;
}
export interface DatasetApiKey {
  id: string;
  key: string;
  expiresAt: string | null;
  revokedAt: string | null;
}
export interface DatasetApiClient {
  id: string;
  tenantId: string;
  name: string;
  status: string;
  scopes: string[];
  allowedStoreIds: string[] | null;
  rateLimitPerMinute: number | null;
  keys: DatasetApiKey[];
}
export interface Dataset {
  tenants: DatasetTenant[];
  stores: DatasetStore[];
  vatRates: DatasetVatRate[];
  suppliers: DatasetSupplier[];
  staff: DatasetStaff[];
  categories: DatasetCategory[];
  products: DatasetProduct[];
  stockLevels: DatasetStockLevel[];
  stockMovements: DatasetStockMovement[];
  promotions: DatasetPromotion[];
  apiClients: DatasetApiClient[];
}
export const COLLECTIONS = [
  'tenants',
  'stores',
  'vatRates',
  'suppliers',
  'staff',
  'categories',
  'products',
  'stockLevels',
  'stockMovements',
  'promotions',
  'apiClients',
] as const satisfies readonly (keyof Dataset)[];
