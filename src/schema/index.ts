import { ApiClient } from './tables/api-client.entity.js';
import { ApiClientStoreGrant } from './tables/api-client-store-grant.entity.js';
import { ApiKey } from './tables/api-key.entity.js';
import { ApiClientRevocation, ApiKeyRevocation } from './tables/revocation.entities.js';
import { ServiceSecret } from './tables/service-secret.entity.js';
import { SyncState } from './tables/sync-state.entity.js';
import { ClientRemoval, SyncRemoval } from './tables/removal.entities.js';
import { Category } from './tables/category.entity.js';
import { ProductCount } from './tables/product-count.entity.js';
import { Product } from './tables/product.entity.js';
import { VatRate } from './tables/vat-rate.entity.js';
import { Promotion } from './tables/promotion.entity.js';
import { Supplier } from './tables/supplier.entity.js';
import { StockCostLayer, StockMovement } from './tables/stock-history.entities.js';
import { StockLevel } from './tables/stock-level.entity.js';
import { Staff } from './tables/staff.entity.js';
import { Store } from './tables/store.entity.js';
import { Tenant } from './tables/tenant.entity.js';
import { InitialSchema1763683200000 } from './migrations/1763683200000-initial-schema.js';
import { ProductCounts1763769600000 } from './migrations/1763769600000-product-counts.js';
import { LowStockProductActive1763942400000 } from './migrations/1763942400000-low-stock-product-active.js';
import { DeferrableStoreSku1764028800000 } from './migrations/1764028800000-deferrable-store-sku.js';
import { PermanentRevocation1764115200000 } from './migrations/1764115200000-permanent-revocation.js';
import { ChangeMarkers1764201600000 } from './migrations/1764201600000-change-markers.js';
import { ServiceSecrets1764288000000 } from './migrations/1764288000000-service-secrets.js';
import { SyncInputs1764374400000 } from './migrations/1764374400000-sync-inputs.js';
import { FailSafeSync1764547200000 } from './migrations/1764547200000-fail-safe-sync.js';
import { Removals1764633600000 } from './migrations/1764633600000-removals.js';
import { LowStockIndex1763856000000 } from './migrations/1763856000000-low-stock-index.js';

export const ENTITIES = [
  Tenant,
  Store,
  Staff,
  Supplier,
  VatRate,
  Category,
  Product,
  ProductCount,
  StockLevel,
  StockCostLayer,
  StockMovement,
  Promotion,
  ApiClient,
  ApiClientStoreGrant,
  ApiKey,
  ApiKeyRevocation,
  ApiClientRevocation,
  ServiceSecret,
  SyncState,
  SyncRemoval,
  ClientRemoval,
];

/** Listed explicitly (no glob), so that the same list works from `dist/`, from jest and from ormconfig.ts. */
export const MIGRATIONS = [
  InitialSchema1763683200000,
  ProductCounts1763769600000,
  LowStockIndex1763856000000,
  LowStockProductActive1763942400000,
  DeferrableStoreSku1764028800000,
  PermanentRevocation1764115200000,
  ChangeMarkers1764201600000,
  ServiceSecrets1764288000000,
  SyncInputs1764374400000,
  FailSafeSync1764547200000,
  Removals1764633600000,
];
