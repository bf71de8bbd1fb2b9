import { existsSync, readdirSync } from 'node:fs';
import type { MigrationInterface } from 'typeorm';
import { ApiClient } from './tables/api-client.entity.js';
import { ApiClientStoreGrant } from './tables/api-client-store-grant.entity.js';
import { ApiKey } from './tables/api-key.entity.js';
import { ApiClientRevocation, ApiKeyRevocation } from './tables/revocation.entities.js';
import { ServiceSecret } from './tables/service-secret.entity.js';
import { SyncState } from './tables/sync-state.entity.js';
import { SyncServerStart } from './tables/sync-server-start.entity.js';
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
  SyncServerStart,
  SyncRemoval,
  ClientRemoval,
];

/**
 * Every migration, found in migrations/ rather than listed, so that a new migration is one new file
 * and none can be left out: each file is named `<13-digit timestamp>-<name>` and exports the class
 * whose name ends with that timestamp. Read beside this module as it runs (the compiled .js under
 * dist/, the .ts sources under jest, imported as .js as every import here is), in timestamp order.
 * A migration must not import this module, even through another: its import would wait for itself.
 */
const MIGRATION_FILE = /^(\d{13})-[a-z0-9-]+\.(?:js|ts)$/;
/**
 * Under dist/ in a checkout the sources say which migrations there are: tsc removes nothing, so a
 * migration compiled on another branch stays in dist/ after a switch back, and must not run. The
 * image has no src/: its dist/ is built once.
 */
const SOURCES = new URL('../../src/schema/migrations/', import.meta.url);
const MIGRATION_FOLDER =
  import.meta.url.endsWith('.js') && existsSync(SOURCES) ? SOURCES : new URL('./migrations/', import.meta.url);
export const MIGRATIONS: (new () => MigrationInterface)[] = await Promise.all(
  readdirSync(MIGRATION_FOLDER)
    // Source maps beside the compiled files; any other file that is not a migration is a mistake.
    .filter((file) => !file.endsWith('.map'))
    .sort()
    .map(async (file) => {
      const timestamp = MIGRATION_FILE.exec(file)?.[1];
      if (timestamp === undefined) throw new Error(`migrations/${file} is not named <13-digit timestamp>-<name>`);
      const exported = Object.values(
        (await import(`./migrations/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>,
      );
      const found = exported.filter(
        (value): value is new () => MigrationInterface => typeof value === 'function' && value.name.endsWith(timestamp),
      );
      if (found.length !== 1) throw new Error(`migrations/${file} must export one class named …${timestamp}`);
      return found[0];
    }),
);
